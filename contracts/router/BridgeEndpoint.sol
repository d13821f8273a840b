// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Minimal, LibAsset} from "../libraries/LibAsset.sol";
import {DepositRequest} from "./Types.sol";

/// The sandbox's bridge, one contract per chain for every bridge key of the snapshot.
/// - Source chain: `deposit` escrows the amount (token or native coin) for a configured route
///   (bridge, this chain, destination chain, token), checks the route's min/max and native messaging fee, and emits
///   Deposited with everything the relayer needs.
/// - Destination chain: the relayer calls `release`; the endpoint applies the route's fee model (bridge.ts bridgeOut):
///     out = floor((in − fixedFee)·(1e6 − feePpm)/1e6) − destinationGasFee, in the sending token's units, rescaled to
///     the received token's decimals (down),
///   and pays `receiverOnDestination` from its own liquidity. Without a destination call the receiver must get at
///   least destinationMinAmount. With one, receiverOnDestination must be this chain's router and the call one of
///   its completion entry points (swapAndCompleteBridgeTokens, swapAndCompleteBridgeTokensWithCalls), else the
///   release reverts (DestinationCallNotAllowed): a depositor can never make the endpoint call anything else. The
///   endpoint approves the router for exactly the amount (or sends it as value), calls it with destinationCallData,
///   and resets the approval to 0; if that call fails the receiver gets the bridged tokens instead. A release that
///   cannot happen reverts: the relayer then cancels the deposit here (`cancel`, so that it can never be released
///   later) and calls `refund` on the source chain, which returns the escrowed amount to refundTo.
/// - Release and refund are exclusive: a deposit is released or cancelled once on the destination (`settled`), and
///   on the source refunded only while pending; the relayer marks a released deposit on the source
///   (`markReleased`), after which it can no longer be refunded.
/// - Deposits are credited by what arrived (a fee-on-transfer token is never over-released); the native fee above
///   the route's goes back to the depositor. The admin and the relayer are set in the constructor (never zero).
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
        uint8 status; // 1 pending, 2 refunded, 3 released on the destination
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
    /// This chain's router: the only target of a destination call.
    address public router;
    uint256 public depositCount;
    mapping(bytes32 => Route) private routes;
    mapping(uint256 => Deposit) public deposits;
    /// fromChainId → depositId → released or cancelled here (the name is kept for the readers of earlier versions)
    mapping(uint256 => mapping(uint256 => bool)) public released;

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
    event Cancelled(uint256 indexed fromChainId, uint256 indexed depositId);
    event MarkedReleased(uint256 indexed depositId);
    event RouterChanged(address router);

    error ZeroAddress();
    error DestinationCallNotAllowed(address target, bytes4 selector);
    error Reentrancy();
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

    bytes4 private constant COMPLETE = bytes4(keccak256("swapAndCompleteBridgeTokens(bytes32,(address,address,address,address,uint256,bytes,bool)[],address,address,uint256)"));
    bytes4 private constant COMPLETE_WITH_CALLS = bytes4(
        keccak256("swapAndCompleteBridgeTokensWithCalls(bytes32,(address,address,address,address,uint256,bytes,bool)[],address,address,uint256,(address,address,address,uint256,bytes,uint256,address)[])")
    );

    constructor(address admin_, address relayer_) {
        if (admin_ == address(0) || relayer_ == address(0)) revert ZeroAddress();
        admin = admin_;
        relayer = relayer_;
    }

    modifier onlyAdmin() {
        if (msg.sender != admin) revert NotAdmin();
        _;
    }

    modifier onlyRelayer() {
        if (msg.sender != relayer) revert NotRelayer();
        _;
    }

    /// One lock for every entry point that moves funds (transient storage).
    modifier nonReentrant() {
        uint256 locked;
        assembly {
            locked := tload(0)
        }
        if (locked != 0) revert Reentrancy();
        assembly {
            tstore(0, 1)
        }
        _;
        assembly {
            tstore(0, 0)
        }
    }

    function setRouter(address router_) external onlyAdmin {
        router = router_;
        emit RouterChanged(router_);
    }

    function setRoutes(RouteConfig[] calldata configs) external onlyAdmin {
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

    function deposit(DepositRequest calldata r) external payable nonReentrant returns (uint256 depositId) {
        Route memory route = getRoute(r.bridge, block.chainid, r.destinationChainId, r.token);
        if (r.refundTo == address(0)) revert ZeroAddress();
        uint256 fee;
        uint256 amount = r.amount;
        if (LibAsset.isNative(r.token)) {
            if (msg.value < r.amount) revert NativeFeeTooLow(msg.value, r.amount);
            fee = msg.value - r.amount;
        } else {
            fee = msg.value;
            amount = LibAsset.pull(r.token, msg.sender, r.amount); // what arrived
        }
        _checkLimits(amount, route);
        if (fee < route.nativeFee) revert NativeFeeTooLow(fee, route.nativeFee);
        depositId = ++depositCount;
        deposits[depositId] = Deposit({token: r.token, status: 1, refundTo: r.refundTo, amount: amount});
        DepositRequest memory credited = r;
        credited.amount = amount;
        emit Deposited(depositId, r.transactionId, credited);
        // the native fee above the route's goes back to the depositor
        if (fee > route.nativeFee) LibAsset.transfer(LibAsset.NATIVE, msg.sender, fee - route.nativeFee);
    }

    /// Source chain: pays a pending deposit back to its refundTo (the relayer, once the release was cancelled).
    function refund(uint256 depositId) external onlyRelayer nonReentrant {
        Deposit storage d = deposits[depositId];
        if (d.status != 1) revert NotPending();
        d.status = 2;
        LibAsset.transfer(d.token, d.refundTo, d.amount);
        emit Refunded(depositId, d.token, d.amount, d.refundTo);
    }

    /// Source chain: records that a pending deposit was released on its destination (it can no longer be refunded).
    function markReleased(uint256 depositId) external onlyRelayer {
        Deposit storage d = deposits[depositId];
        if (d.status != 1) revert NotPending();
        d.status = 3;
        emit MarkedReleased(depositId);
    }

    // ---------------------------------------------------------------------------------------------- destination

    /// What arrives for `amount` sent on the route (in the received token's units); reverts when impossible.
    function quote(string calldata bridge, uint256 fromChainId, address fromToken, uint256 amount) public view returns (address toToken, uint256 out) {
        Route memory route = getRoute(bridge, fromChainId, block.chainid, fromToken);
        return (route.toToken, _bridgeOut(amount, route));
    }

    /// Destination chain: marks a deposit that will not be released (before the relayer refunds it on its source).
    function cancel(uint256 fromChainId, uint256 depositId) external onlyRelayer {
        if (released[fromChainId][depositId]) revert AlreadyReleased();
        released[fromChainId][depositId] = true;
        emit Cancelled(fromChainId, depositId);
    }

    function release(ReleaseRequest calldata r) external onlyRelayer nonReentrant returns (uint256 out) {
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
            checkDestinationCall(paidTo, r.destinationCallData);
            if (r.receiver == address(0)) revert ZeroAddress();
            uint256 value;
            if (LibAsset.isNative(token)) value = out;
            else LibAsset.approve(token, paidTo, out);
            (ok, ) = paidTo.call{value: value}(r.destinationCallData);
            if (!LibAsset.isNative(token) && IERC20Minimal(token).allowance(address(this), paidTo) != 0) LibAsset.approve(token, paidTo, 0);
            if (!ok) {
                paidTo = r.receiver;
                LibAsset.transfer(token, paidTo, out);
            }
        }
        emit Released(r.fromChainId, r.depositId, r.transactionId, token, out, paidTo, hasCall, ok);
    }

    /// A destination call goes to this chain's router, to one of its completion entry points, and nowhere else.
    function checkDestinationCall(address target, bytes calldata data) public view {
        bytes4 selector = data.length >= 4 ? bytes4(data[:4]) : bytes4(0);
        if (target != router || router == address(0) || (selector != COMPLETE && selector != COMPLETE_WITH_CALLS)) {
            revert DestinationCallNotAllowed(target, selector);
        }
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
