// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Minimal, LibAsset} from "../libraries/LibAsset.sol";
import {BridgeData, BridgeSpecificData, DepositRequest, IBridgeEndpoint, SwapData} from "./Types.sol";

/// The service's router ("diamond"), all facets in one contract, executing the call data the service builds
/// (src/core/transactions/abi.ts, build.ts):
/// - SwapData run in order, the router holding the intermediate balances. Before them the router pulls from the
///   caller the fromAmount of every SwapData with requiresDeposit (transferFrom, or msg.value for the native coin).
///   Each SwapData approves approveTo (max approval when the allowance is short) and calls callTo with callData,
///   sending fromAmount as value when sendingAssetId is the native coin (address 0).
/// - swapTokensGeneric pays the receiver what the swaps produced of the last receivingAssetId (at least
///   minAmountOut) and returns any unspent input to the caller.
/// - startBridgeTokensVia<B> pulls BridgeData.minAmount and hands it to the bridge endpoint;
///   swapAndStartBridgeTokensVia<B> bridges what its swaps produced (at least minAmount) when hasSourceSwaps, else
///   pulls minAmount like startBridgeTokensVia<B> (its SwapData are side calls). Native coin sent beyond the
///   deposits and the bridged amount is the bridge's messaging fee, forwarded to the endpoint.
/// - swapAndCompleteBridgeTokens (destination) takes the bridged funds from its caller (msg.value, or the caller's
///   whole allowance of transferredAssetId), runs the swaps, pays the receiver at least minAmountOut, and returns
///   what is left of the bridged token to the caller (the bridge executor keeps it as the destination gas fee).
contract Router {
    address public admin;
    address public bridgeEndpoint;

    event LiFiTransferStarted(BridgeData bridgeData);
    event LiFiTransferCompleted(bytes32 indexed transactionId, address receivingAssetId, address receiver, uint256 amount, uint256 timestamp);
    event LiFiGenericSwapCompleted(
        bytes32 indexed transactionId,
        string integrator,
        string referrer,
        address receiver,
        address fromAssetId,
        address toAssetId,
        uint256 fromAmount,
        uint256 toAmount
    );

    error AlreadyInitialized();
    error NotAdmin();
    error NoSwapData();
    error InvalidReceiver();
    error InvalidAmount();
    error InvalidBridge(string expected, string given);
    error CannotBridgeToSameNetwork();
    error InformationMismatch();
    error NativeAmountMismatch(uint256 needed, uint256 sent);
    error ContractCallNotAllowed(address callTo);
    error CumulativeSlippageTooHigh(uint256 minAmount, uint256 receivedAmount);

    function initialize(address admin_, address bridgeEndpoint_) external {
        if (admin != address(0)) revert AlreadyInitialized();
        admin = admin_;
        bridgeEndpoint = bridgeEndpoint_;
    }

    function setBridgeEndpoint(address endpoint) external {
        if (msg.sender != admin) revert NotAdmin();
        bridgeEndpoint = endpoint;
    }

    receive() external payable {}

    // ---------------------------------------------------------------------------------------------- same chain

    function swapTokensGeneric(
        bytes32 transactionId,
        string calldata integrator,
        string calldata referrer,
        address receiver,
        uint256 minAmountOut,
        SwapData[] calldata swapData
    ) external payable {
        if (swapData.length == 0) revert NoSwapData();
        if (receiver == address(0)) revert InvalidReceiver();
        address fromAsset = swapData[0].sendingAssetId;
        address toAsset = swapData[swapData.length - 1].receivingAssetId;
        uint256 toStart = _balanceBefore(toAsset);
        uint256 fromStart = _balanceBefore(fromAsset);
        (uint256 deposited, ) = _deposit(swapData);
        _executeSwaps(swapData);
        uint256 received = LibAsset.balanceOf(toAsset, address(this)) - toStart;
        if (received < minAmountOut) revert CumulativeSlippageTooHigh(minAmountOut, received);
        LibAsset.transfer(toAsset, receiver, received);
        if (fromAsset != toAsset) _returnExcess(fromAsset, fromStart);
        emit LiFiGenericSwapCompleted(transactionId, integrator, referrer, receiver, fromAsset, toAsset, deposited, received);
    }

    // ---------------------------------------------------------------------------------------------- destination

    function swapAndCompleteBridgeTokens(
        bytes32 transactionId,
        SwapData[] calldata swapData,
        address transferredAssetId,
        address receiver,
        uint256 minAmountOut
    ) external payable {
        if (receiver == address(0)) revert InvalidReceiver();
        address toAsset = swapData.length > 0 ? swapData[swapData.length - 1].receivingAssetId : transferredAssetId;
        uint256 toStart = _balanceBefore(toAsset);
        uint256 bridgedStart = _balanceBefore(transferredAssetId);
        if (!LibAsset.isNative(transferredAssetId)) {
            uint256 allowed = IERC20Minimal(transferredAssetId).allowance(msg.sender, address(this));
            LibAsset.transferFrom(transferredAssetId, msg.sender, address(this), allowed);
        }
        _executeSwaps(swapData);
        uint256 received = LibAsset.balanceOf(toAsset, address(this)) - toStart;
        if (received < minAmountOut) revert CumulativeSlippageTooHigh(minAmountOut, received);
        LibAsset.transfer(toAsset, receiver, received);
        if (toAsset != transferredAssetId) _returnExcess(transferredAssetId, bridgedStart);
        emit LiFiTransferCompleted(transactionId, toAsset, receiver, received, block.timestamp);
    }

    // ---------------------------------------------------------------------------------------------- bridges

    function startBridgeTokensViaAcross(BridgeData calldata b, BridgeSpecificData calldata d) external payable { _start("across", b, d); }
    function swapAndStartBridgeTokensViaAcross(BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) external payable { _swapAndStart("across", b, s, d); }
    function startBridgeTokensViaAllbridge(BridgeData calldata b, BridgeSpecificData calldata d) external payable { _start("allbridge", b, d); }
    function swapAndStartBridgeTokensViaAllbridge(BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) external payable { _swapAndStart("allbridge", b, s, d); }
    function startBridgeTokensViaArbitrumBridge(BridgeData calldata b, BridgeSpecificData calldata d) external payable { _start("arbitrum", b, d); }
    function swapAndStartBridgeTokensViaArbitrumBridge(BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) external payable { _swapAndStart("arbitrum", b, s, d); }
    function startBridgeTokensViaBaseBridge(BridgeData calldata b, BridgeSpecificData calldata d) external payable { _start("base", b, d); }
    function swapAndStartBridgeTokensViaBaseBridge(BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) external payable { _swapAndStart("base", b, s, d); }
    function startBridgeTokensViaCCTP(BridgeData calldata b, BridgeSpecificData calldata d) external payable { _start("cctp", b, d); }
    function swapAndStartBridgeTokensViaCCTP(BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) external payable { _swapAndStart("cctp", b, s, d); }
    function startBridgeTokensViaDeBridge(BridgeData calldata b, BridgeSpecificData calldata d) external payable { _start("debridge", b, d); }
    function swapAndStartBridgeTokensViaDeBridge(BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) external payable { _swapAndStart("debridge", b, s, d); }
    function startBridgeTokensViaGnosisBridge(BridgeData calldata b, BridgeSpecificData calldata d) external payable { _start("gnosis", b, d); }
    function swapAndStartBridgeTokensViaGnosisBridge(BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) external payable { _swapAndStart("gnosis", b, s, d); }
    function startBridgeTokensViaHop(BridgeData calldata b, BridgeSpecificData calldata d) external payable { _start("hop", b, d); }
    function swapAndStartBridgeTokensViaHop(BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) external payable { _swapAndStart("hop", b, s, d); }
    function startBridgeTokensViaLineaBridge(BridgeData calldata b, BridgeSpecificData calldata d) external payable { _start("linea", b, d); }
    function swapAndStartBridgeTokensViaLineaBridge(BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) external payable { _swapAndStart("linea", b, s, d); }
    function startBridgeTokensViaMayan(BridgeData calldata b, BridgeSpecificData calldata d) external payable { _start("mayan", b, d); }
    function swapAndStartBridgeTokensViaMayan(BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) external payable { _swapAndStart("mayan", b, s, d); }
    function startBridgeTokensViaOptimismBridge(BridgeData calldata b, BridgeSpecificData calldata d) external payable { _start("optimism", b, d); }
    function swapAndStartBridgeTokensViaOptimismBridge(BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) external payable { _swapAndStart("optimism", b, s, d); }
    function startBridgeTokensViaPolygonBridge(BridgeData calldata b, BridgeSpecificData calldata d) external payable { _start("polygon", b, d); }
    function swapAndStartBridgeTokensViaPolygonBridge(BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) external payable { _swapAndStart("polygon", b, s, d); }
    function startBridgeTokensViaRelay(BridgeData calldata b, BridgeSpecificData calldata d) external payable { _start("relay", b, d); }
    function swapAndStartBridgeTokensViaRelay(BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) external payable { _swapAndStart("relay", b, s, d); }
    function startBridgeTokensViaScrollBridge(BridgeData calldata b, BridgeSpecificData calldata d) external payable { _start("scroll", b, d); }
    function swapAndStartBridgeTokensViaScrollBridge(BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) external payable { _swapAndStart("scroll", b, s, d); }
    function startBridgeTokensViaStargate(BridgeData calldata b, BridgeSpecificData calldata d) external payable { _start("stargate", b, d); }
    function swapAndStartBridgeTokensViaStargate(BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) external payable { _swapAndStart("stargate", b, s, d); }
    function startBridgeTokensViaThorchain(BridgeData calldata b, BridgeSpecificData calldata d) external payable { _start("thorchain", b, d); }
    function swapAndStartBridgeTokensViaThorchain(BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) external payable { _swapAndStart("thorchain", b, s, d); }
    function startBridgeTokensViaZkSyncBridge(BridgeData calldata b, BridgeSpecificData calldata d) external payable { _start("zksync", b, d); }
    function swapAndStartBridgeTokensViaZkSyncBridge(BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) external payable { _swapAndStart("zksync", b, s, d); }

    function _start(string memory key, BridgeData calldata b, BridgeSpecificData calldata d) private {
        _validateBridge(key, b, d);
        if (b.hasSourceSwaps) revert InformationMismatch();
        uint256 fee;
        if (LibAsset.isNative(b.sendingAssetId)) {
            if (msg.value < b.minAmount) revert NativeAmountMismatch(b.minAmount, msg.value);
            fee = msg.value - b.minAmount;
        } else {
            LibAsset.transferFrom(b.sendingAssetId, msg.sender, address(this), b.minAmount);
            fee = msg.value;
        }
        _bridge(b, d, b.minAmount, fee);
    }

    function _swapAndStart(string memory key, BridgeData calldata b, SwapData[] calldata s, BridgeSpecificData calldata d) private {
        _validateBridge(key, b, d);
        if (s.length == 0) revert NoSwapData();
        address asset = b.sendingAssetId;
        uint256 start = _balanceBefore(asset);
        (, uint256 nativeDeposited) = _deposit(s);
        uint256 nativeReserved = msg.value - nativeDeposited; // messaging fee (and the native amount to bridge without swaps)
        uint256 amount;
        if (!b.hasSourceSwaps) {
            amount = b.minAmount;
            if (LibAsset.isNative(asset)) {
                if (nativeReserved < amount) revert NativeAmountMismatch(amount, nativeReserved);
                nativeReserved -= amount;
            } else {
                LibAsset.transferFrom(asset, msg.sender, address(this), amount);
            }
            _executeSwaps(s);
        } else {
            _executeSwaps(s);
            amount = LibAsset.balanceOf(asset, address(this)) - start;
            if (LibAsset.isNative(asset)) amount -= nativeReserved;
            if (amount < b.minAmount) revert CumulativeSlippageTooHigh(b.minAmount, amount);
        }
        _bridge(b, d, amount, nativeReserved);
    }

    function _validateBridge(string memory key, BridgeData calldata b, BridgeSpecificData calldata d) private view {
        if (keccak256(bytes(b.bridge)) != keccak256(bytes(key))) revert InvalidBridge(key, b.bridge);
        if (b.receiver == address(0)) revert InvalidReceiver();
        if (b.minAmount == 0) revert InvalidAmount();
        if (b.destinationChainId == block.chainid) revert CannotBridgeToSameNetwork();
        if (b.hasDestinationCall != (d.destinationCallData.length > 0)) revert InformationMismatch();
    }

    function _bridge(BridgeData calldata b, BridgeSpecificData calldata d, uint256 amount, uint256 nativeFee) private {
        address endpoint = bridgeEndpoint;
        uint256 value = nativeFee;
        if (LibAsset.isNative(b.sendingAssetId)) value += amount;
        else LibAsset.maxApprove(b.sendingAssetId, endpoint, amount);
        DepositRequest memory r;
        r.bridge = b.bridge;
        r.transactionId = b.transactionId;
        r.token = b.sendingAssetId;
        r.amount = amount;
        r.destinationChainId = b.destinationChainId;
        r.receiverOnDestination = d.receiverOnDestination;
        r.receiver = b.receiver;
        r.nonEVMReceiver = d.nonEVMReceiver;
        r.destinationMinAmount = d.destinationMinAmount;
        r.destinationCallData = d.destinationCallData;
        r.refundTo = msg.sender == address(this) ? tx.origin : msg.sender;
        IBridgeEndpoint(endpoint).deposit{value: value}(r);
        emit LiFiTransferStarted(b);
    }

    // ---------------------------------------------------------------------------------------------- swaps

    /// Balance of `asset` held before this call (the native coin sent with it excluded).
    function _balanceBefore(address asset) private view returns (uint256) {
        return LibAsset.isNative(asset) ? address(this).balance - msg.value : IERC20Minimal(asset).balanceOf(address(this));
    }

    /// Pulls the fromAmount of every SwapData with requiresDeposit; returns the total and its native part.
    function _deposit(SwapData[] calldata swaps) private returns (uint256 total, uint256 nativeTotal) {
        for (uint256 k = 0; k < swaps.length; k++) {
            if (!swaps[k].requiresDeposit) continue;
            uint256 amount = swaps[k].fromAmount;
            total += amount;
            if (LibAsset.isNative(swaps[k].sendingAssetId)) nativeTotal += amount;
            else LibAsset.transferFrom(swaps[k].sendingAssetId, msg.sender, address(this), amount);
        }
        if (nativeTotal > msg.value) revert NativeAmountMismatch(nativeTotal, msg.value);
    }

    function _executeSwaps(SwapData[] calldata swaps) private {
        for (uint256 k = 0; k < swaps.length; k++) {
            SwapData calldata s = swaps[k];
            if (s.callTo.code.length == 0) revert ContractCallNotAllowed(s.callTo);
            uint256 value;
            if (LibAsset.isNative(s.sendingAssetId)) value = s.fromAmount;
            else LibAsset.maxApprove(s.sendingAssetId, s.approveTo, s.fromAmount);
            (bool ok, bytes memory ret) = s.callTo.call{value: value}(s.callData);
            if (!ok) {
                assembly {
                    revert(add(ret, 32), mload(ret))
                }
            }
        }
    }

    /// Sends back to the caller what is left of `asset` above the balance held before the call.
    function _returnExcess(address asset, uint256 start) private {
        uint256 balance = LibAsset.balanceOf(asset, address(this));
        if (balance > start) LibAsset.transfer(asset, msg.sender, balance - start);
    }
}
