// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {LibAsset} from "../libraries/LibAsset.sol";
import {DepositRequest} from "./Types.sol";

/// The sandbox's bridge, one contract per chain for every bridge key of the snapshot.
/// - Source chain: `deposit` escrows the amount (token or native coin) for a configured route
///   (bridge, this chain, destination chain, token), checks the route's min/max and native messaging fee, and emits
///   Deposited with everything the relayer needs.
/// - Destination chain: the relayer calls `release`; the endpoint applies the route's fee model (bridge.ts bridgeOut):
///     out = floor((in − fixedFee)·(1e6 − feePpm)/1e6) − destinationGasFee, in the sending token's units, rescaled to
///     the received token's decimals (down),
///   and pays `receiverOnDestination` from its own liquidity. Without a destination call the receiver must get at
///   least destinationMinAmount. With one, the endpoint approves (or sends as value) the amount to
///   receiverOnDestination (the destination router) and calls it with destinationCallData; if that call fails the
///   receiver gets the bridged tokens instead. A release that cannot happen reverts: the relayer then calls
///   `refund` on the source chain, which returns the escrowed amount to refundTo.
contract BridgeEndpoint {
    uint256 private constant PPM = 1_000_000;

    struct RouteConfig {
        string bridge;
        uint256 fromChainId;
        uint256 toChainId;
        address fromToken;
        address toToken;
        uint8 fromDecimals;
        uint8 toDecimals;
        uint32 feePpm;
        uint128 fixedFee;
        uint128 destinationGasFee;
        uint128 minAmount;
        uint128 maxAmount;
        uint128 nativeFee;
    }

    struct Route {
        address toToken;
        uint32 feePpm;
        uint8 fromDecimals;
        uint8 toDecimals;
        bool exists;
        uint128 fixedFee;
        uint128 destinationGasFee;
        uint128 minAmount;
        uint128 maxAmount;
        uint128 nativeFee;
    }

    struct Deposit {
        address token;
        uint8 status; // 1 pending, 2 refunded
        address refundTo;
        uint256 amount;
    }

    struct ReleaseRequest {
        uint256 fromChainId;
        uint256 depositId;
        string bridge;
        bytes32 transactionId;
        address fromToken;
        uint256 amount;
        address receiverOnDestination;
        address receiver;
        uint256 destinationMinAmount;
        bytes destinationCallData;
    }

    address public admin;
    address public relayer;
    uint256 public depositCount;
    mapping(bytes32 => Route) private routes;
    mapping(uint256 => Deposit) public deposits;
    mapping(uint256 => mapping(uint256 => bool)) public released; // fromChainId → depositId → done

    /// transactionId indexed: a transfer is found by its id (GET /v1/status) with one eth_getLogs.
    event Deposited(uint256 indexed depositId, bytes32 indexed transactionId, DepositRequest request);
    event Released(
        uint256 indexed fromChainId,
        uint256 indexed depositId,
        bytes32 indexed transactionId,
        address token,
        uint256 amount,
        address paidTo,
        bool destinationCall,
        bool destinationCallSucceeded
    );
    event Refunded(uint256 indexed depositId, address token, uint256 amount, address to);

    error AlreadyInitialized();
    error NotAdmin();
    error NotRelayer();
    error UnknownRoute(string bridge, uint256 fromChainId, uint256 toChainId, address token);
    error AmountTooLow(uint256 amount, uint256 minAmount);
    error AmountTooHigh(uint256 amount, uint256 maxAmount);
    error FeesHigherThanAmount(uint256 amount);
    error NativeFeeTooLow(uint256 sent, uint256 needed);
    error BelowDestinationMinimum(uint256 amount, uint256 minimum);
    error AlreadyReleased();
    error NotPending();

    function initialize(address admin_, address relayer_) external {
        if (admin != address(0)) revert AlreadyInitialized();
        admin = admin_;
        relayer = relayer_;
    }

    function setRoutes(RouteConfig[] calldata configs) external {
        if (msg.sender != admin) revert NotAdmin();
        for (uint256 k = 0; k < configs.length; k++) {
            RouteConfig calldata c = configs[k];
            require(c.feePpm < PPM, "fee");
            routes[routeKey(c.bridge, c.fromChainId, c.toChainId, c.fromToken)] = Route({
                toToken: c.toToken,
                feePpm: c.feePpm,
                fromDecimals: c.fromDecimals,
                toDecimals: c.toDecimals,
                exists: true,
                fixedFee: c.fixedFee,
                destinationGasFee: c.destinationGasFee,
                minAmount: c.minAmount,
                maxAmount: c.maxAmount,
                nativeFee: c.nativeFee
            });
        }
    }

    function routeKey(string memory bridge, uint256 fromChainId, uint256 toChainId, address fromToken) public pure returns (bytes32) {
        return keccak256(abi.encode(bridge, fromChainId, toChainId, fromToken));
    }

    function getRoute(string calldata bridge, uint256 fromChainId, uint256 toChainId, address fromToken) public view returns (Route memory route) {
        route = routes[routeKey(bridge, fromChainId, toChainId, fromToken)];
        if (!route.exists) revert UnknownRoute(bridge, fromChainId, toChainId, fromToken);
    }

    // ---------------------------------------------------------------------------------------------- source

    function deposit(DepositRequest calldata r) external payable returns (uint256 depositId) {
        Route memory route = getRoute(r.bridge, block.chainid, r.destinationChainId, r.token);
        _checkLimits(r.amount, route);
        uint256 fee;
        if (LibAsset.isNative(r.token)) {
            if (msg.value < r.amount) revert NativeFeeTooLow(msg.value, r.amount);
            fee = msg.value - r.amount;
        } else {
            fee = msg.value;
            LibAsset.transferFrom(r.token, msg.sender, address(this), r.amount);
        }
        if (fee < route.nativeFee) revert NativeFeeTooLow(fee, route.nativeFee);
        depositId = ++depositCount;
        deposits[depositId] = Deposit({token: r.token, status: 1, refundTo: r.refundTo, amount: r.amount});
        emit Deposited(depositId, r.transactionId, r);
    }

    function refund(uint256 depositId) external {
        if (msg.sender != relayer) revert NotRelayer();
        Deposit storage d = deposits[depositId];
        if (d.status != 1) revert NotPending();
        d.status = 2;
        LibAsset.transfer(d.token, d.refundTo, d.amount);
        emit Refunded(depositId, d.token, d.amount, d.refundTo);
    }

    // ---------------------------------------------------------------------------------------------- destination

    /// What arrives for `amount` sent on the route (in the received token's units); reverts when impossible.
    function quote(string calldata bridge, uint256 fromChainId, address fromToken, uint256 amount) public view returns (address toToken, uint256 out) {
        Route memory route = getRoute(bridge, fromChainId, block.chainid, fromToken);
        return (route.toToken, _bridgeOut(amount, route));
    }

    function release(ReleaseRequest calldata r) external returns (uint256 out) {
        if (msg.sender != relayer) revert NotRelayer();
        if (released[r.fromChainId][r.depositId]) revert AlreadyReleased();
        released[r.fromChainId][r.depositId] = true;
        address token;
        (token, out) = quote(r.bridge, r.fromChainId, r.fromToken, r.amount);
        bool hasCall = r.destinationCallData.length > 0;
        bool ok = true;
        address paidTo = r.receiverOnDestination;
        if (!hasCall) {
            if (out < r.destinationMinAmount) revert BelowDestinationMinimum(out, r.destinationMinAmount);
            LibAsset.transfer(token, paidTo, out);
        } else {
            uint256 value;
            if (LibAsset.isNative(token)) value = out;
            else LibAsset.approve(token, paidTo, out);
            (ok, ) = paidTo.call{value: value}(r.destinationCallData);
            if (!ok) {
                if (!LibAsset.isNative(token)) LibAsset.approve(token, paidTo, 0);
                paidTo = r.receiver;
                LibAsset.transfer(token, paidTo, out);
            }
        }
        emit Released(r.fromChainId, r.depositId, r.transactionId, token, out, paidTo, hasCall, ok);
    }

    function _checkLimits(uint256 amount, Route memory route) private pure {
        if (amount < route.minAmount) revert AmountTooLow(amount, route.minAmount);
        if (route.maxAmount != 0 && amount > route.maxAmount) revert AmountTooHigh(amount, route.maxAmount);
    }

    function _bridgeOut(uint256 amount, Route memory route) private pure returns (uint256 out) {
        _checkLimits(amount, route);
        if (amount <= route.fixedFee) revert FeesHigherThanAmount(amount);
        uint256 afterProportional = ((amount - route.fixedFee) * (PPM - route.feePpm)) / PPM; // rounds down
        if (afterProportional <= route.destinationGasFee) revert FeesHigherThanAmount(amount);
        out = afterProportional - route.destinationGasFee;
        if (route.toDecimals > route.fromDecimals) out *= 10 ** (route.toDecimals - route.fromDecimals);
        else if (route.fromDecimals > route.toDecimals) out /= 10 ** (route.fromDecimals - route.toDecimals); // rounds down
        if (out == 0) revert FeesHigherThanAmount(amount);
    }

    receive() external payable {}
}
