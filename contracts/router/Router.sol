// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Minimal, LibAsset} from "../libraries/LibAsset.sol";
import {BridgeData, BridgeSpecificData, DepositRequest, IBridgeEndpoint, SwapData} from "./Types.sol";
import {CallData, CallExecutor} from "./CallExecutor.sol";

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
/// - Contract calls: swapAndCall (one chain) and swapAndCompleteBridgeTokensWithCalls (destination) run the swaps,
///   then each CallData through the call executor (CallExecutor.sol, a separate contract holding no user approvals),
///   then pay the receiver what is left; see the section below and abi.ts.
contract Router {
    address public admin;
    address public bridgeEndpoint;
    /// The contract-call executor (created by `initialize`, or by the first contract call of an older router).
    address public callExecutor;

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
    event LiFiSwappedGeneric(
        bytes32 indexed transactionId,
        string integrator,
        string referrer,
        address fromAssetId,
        address toAssetId,
        uint256 fromAmount,
        uint256 toAmount
    );
    event ContractCallExecuted(bytes32 indexed transactionId, uint256 index, address target, bool success, uint256 amount);

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
    error UnknownFacet(bytes4 selector);
    error NotSelf();
    error Reentrancy();

    function initialize(address admin_, address bridgeEndpoint_) external {
        if (admin != address(0)) revert AlreadyInitialized();
        admin = admin_;
        bridgeEndpoint = bridgeEndpoint_;
        _callExecutor(); // created now, so that no user's first contract call pays for it
    }

    function setBridgeEndpoint(address endpoint) external {
        if (msg.sender != admin) revert NotAdmin();
        bridgeEndpoint = endpoint;
    }

    receive() external payable {}

    // ---------------------------------------------------------------------------------------------- same chain

    function swapTokensGeneric(
        bytes32 transactionId,
        string memory integrator,
        string memory referrer,
        address receiver,
        uint256 minAmountOut,
        SwapData[] memory swapData
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
        SwapData[] memory swapData,
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

    // ---------------------------------------------------------------------------------------------- contract calls

    /// Same chain: pulls fromAmount of sendingAssetId (transferFrom after the sender's approval of the router, or
    /// msg.value == fromAmount for the native coin; no SwapData may require a deposit), runs the swaps (reverting
    /// when one fails), checks that they produced at least minAmountOut and the calls' amounts of the calls' asset
    /// (the last receivingAssetId, or sendingAssetId without swaps), runs the calls, pays the receiver the rest and
    /// returns any unspent input to the caller.
    function swapAndCall(
        bytes32 transactionId,
        string memory integrator,
        string memory referrer,
        address receiver,
        address sendingAssetId,
        uint256 fromAmount,
        uint256 minAmountOut,
        SwapData[] memory swapData,
        CallData[] memory calls
    ) external payable {
        _lock();
        if (receiver == address(0)) revert InvalidReceiver();
        if (fromAmount == 0) revert InvalidAmount();
        address toAsset = swapData.length > 0 ? swapData[swapData.length - 1].receivingAssetId : sendingAssetId;
        uint256 total = _checkCalls(calls, toAsset);
        for (uint256 k = 0; k < swapData.length; k++) if (swapData[k].requiresDeposit) revert InformationMismatch();
        if (swapData.length > 0 && swapData[0].sendingAssetId != sendingAssetId) revert InformationMismatch();
        uint256 toStart = _balanceBefore(toAsset);
        uint256 fromStart = _balanceBefore(sendingAssetId);
        if (LibAsset.isNative(sendingAssetId)) {
            if (msg.value != fromAmount) revert NativeAmountMismatch(fromAmount, msg.value);
        } else {
            if (msg.value != 0) revert NativeAmountMismatch(0, msg.value);
            LibAsset.transferFrom(sendingAssetId, msg.sender, address(this), fromAmount);
        }
        _executeSwaps(swapData);
        uint256 received = LibAsset.balanceOf(toAsset, address(this)) - toStart;
        _checkReceived(received, minAmountOut, total);
        if (sendingAssetId != toAsset) emit LiFiSwappedGeneric(transactionId, integrator, referrer, sendingAssetId, toAsset, fromAmount, received);
        _runCalls(transactionId, calls);
        LibAsset.transfer(toAsset, receiver, received - total);
        if (sendingAssetId != toAsset) _returnExcess(sendingAssetId, fromStart);
        emit LiFiGenericSwapCompleted(transactionId, integrator, referrer, receiver, sendingAssetId, toAsset, fromAmount, received);
        _unlock();
    }

    /// Destination: takes the bridged funds like swapAndCompleteBridgeTokens (msg.value, or the caller's whole
    /// allowance of transferredAssetId) and runs the swaps. When a swap fails, or they produce less than
    /// minAmountOut or the calls' amounts, everything is undone and the bridged funds go to the receiver without
    /// any call. Otherwise the calls run, the receiver gets the rest of the calls' asset, and what is left of the
    /// bridged token returns to the caller (the bridge executor's destination gas fee), as in
    /// swapAndCompleteBridgeTokens. LiFiTransferCompleted carries what was delivered (calls included).
    function swapAndCompleteBridgeTokensWithCalls(
        bytes32 transactionId,
        SwapData[] memory swapData,
        address transferredAssetId,
        address receiver,
        uint256 minAmountOut,
        CallData[] memory calls
    ) external payable {
        _lock();
        if (receiver == address(0)) revert InvalidReceiver();
        address toAsset = swapData.length > 0 ? swapData[swapData.length - 1].receivingAssetId : transferredAssetId;
        uint256 total = _checkCalls(calls, toAsset);
        uint256 toStart = _balanceBefore(toAsset);
        uint256 bridgedStart = _balanceBefore(transferredAssetId);
        if (!LibAsset.isNative(transferredAssetId)) {
            uint256 allowed = IERC20Minimal(transferredAssetId).allowance(msg.sender, address(this));
            LibAsset.transferFrom(transferredAssetId, msg.sender, address(this), allowed);
        }
        uint256 bridged = LibAsset.balanceOf(transferredAssetId, address(this)) - bridgedStart;
        try this.runSwapsForCalls(swapData, toAsset, toStart, minAmountOut, total) returns (uint256 received) {
            if (swapData.length > 0) emit LiFiSwappedGeneric(transactionId, "", "", transferredAssetId, toAsset, bridged, received);
            _runCalls(transactionId, calls);
            LibAsset.transfer(toAsset, receiver, received - total);
            if (toAsset != transferredAssetId) _returnExcess(transferredAssetId, bridgedStart);
            emit LiFiTransferCompleted(transactionId, toAsset, receiver, received, block.timestamp);
        } catch {
            LibAsset.transfer(transferredAssetId, receiver, bridged);
            emit LiFiTransferCompleted(transactionId, transferredAssetId, receiver, bridged, block.timestamp);
        }
        _unlock();
    }

    /// The destination swaps and their checks, as an external call of the router to itself so that a failure is
    /// undone as a whole (swapAndCompleteBridgeTokensWithCalls then pays the bridged funds to the receiver).
    function runSwapsForCalls(SwapData[] memory swapData, address toAsset, uint256 toStart, uint256 minAmountOut, uint256 callsTotal)
        external
        returns (uint256 received)
    {
        if (msg.sender != address(this)) revert NotSelf();
        _executeSwaps(swapData);
        received = LibAsset.balanceOf(toAsset, address(this)) - toStart;
        _checkReceived(received, minAmountOut, callsTotal);
    }

    /// Every call takes the calls' asset; returns what they take in all.
    function _checkCalls(CallData[] memory calls, address asset) private pure returns (uint256 total) {
        for (uint256 k = 0; k < calls.length; k++) {
            if (calls[k].sendingAssetId != asset) revert InformationMismatch();
            total += calls[k].amount;
        }
    }

    function _checkReceived(uint256 received, uint256 minAmountOut, uint256 callsTotal) private pure {
        if (received < minAmountOut) revert CumulativeSlippageTooHigh(minAmountOut, received);
        if (received < callsTotal) revert CumulativeSlippageTooHigh(callsTotal, received);
    }

    /// Each call through the executor, in order: `amount` handed over (transfer, or value), run, event.
    function _runCalls(bytes32 transactionId, CallData[] memory calls) private {
        if (calls.length == 0) return;
        address executor = _callExecutor();
        for (uint256 k = 0; k < calls.length; k++) {
            CallData memory c = calls[k];
            uint256 value;
            if (LibAsset.isNative(c.sendingAssetId)) value = c.amount;
            else LibAsset.transfer(c.sendingAssetId, executor, c.amount);
            bool success = CallExecutor(payable(executor)).execute{value: value}(c);
            emit ContractCallExecuted(transactionId, k, c.target, success, c.amount);
        }
    }

    function _callExecutor() private returns (address executor) {
        executor = callExecutor;
        if (executor == address(0)) {
            executor = address(new CallExecutor{salt: bytes32(0)}());
            callExecutor = executor;
        }
    }

    /// Reentrancy guard of the contract-call functions (transient storage: the calls run arbitrary code).
    bytes32 private constant LOCK_SLOT = keccak256("router.contractCalls.lock");

    function _lock() private {
        bytes32 slot = LOCK_SLOT;
        uint256 locked;
        assembly {
            locked := tload(slot)
        }
        if (locked != 0) revert Reentrancy();
        assembly {
            tstore(slot, 1)
        }
    }

    function _unlock() private {
        bytes32 slot = LOCK_SLOT;
        assembly {
            tstore(slot, 0)
        }
    }

    // ---------------------------------------------------------------------------------------------- bridges

    /// startBridgeTokensVia<B>(BridgeData, <B>Data) and swapAndStartBridgeTokensVia<B>(BridgeData, SwapData[], <B>Data)
    /// for every bridge facet of abi.ts (BRIDGE_FACETS), dispatched here by selector: one decoder for all of them.
    fallback() external payable {
        (string memory key, bool withSwaps) = _facet(msg.sig);
        if (withSwaps) {
            (BridgeData memory b, SwapData[] memory s, BridgeSpecificData memory d) = abi.decode(msg.data[4:], (BridgeData, SwapData[], BridgeSpecificData));
            _swapAndStart(key, b, s, d);
        } else {
            (BridgeData memory b, BridgeSpecificData memory d) = abi.decode(msg.data[4:], (BridgeData, BridgeSpecificData));
            _start(key, b, d);
        }
    }

    /// The bridge key of a facet selector and whether it is the swapAndStart variant.
    function _facet(bytes4 selector) private pure returns (string memory, bool) {
        if (selector == bytes4(keccak256("startBridgeTokensViaAcross((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))"))) return ("across", false);
        if (selector == bytes4(keccak256("swapAndStartBridgeTokensViaAcross((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,address,address,address,uint256,bytes,bool)[],(address,bytes,uint256,bytes))"))) return ("across", true);
        if (selector == bytes4(keccak256("startBridgeTokensViaAllbridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))"))) return ("allbridge", false);
        if (selector == bytes4(keccak256("swapAndStartBridgeTokensViaAllbridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,address,address,address,uint256,bytes,bool)[],(address,bytes,uint256,bytes))"))) return ("allbridge", true);
        if (selector == bytes4(keccak256("startBridgeTokensViaArbitrumBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))"))) return ("arbitrum", false);
        if (selector == bytes4(keccak256("swapAndStartBridgeTokensViaArbitrumBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,address,address,address,uint256,bytes,bool)[],(address,bytes,uint256,bytes))"))) return ("arbitrum", true);
        if (selector == bytes4(keccak256("startBridgeTokensViaBaseBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))"))) return ("base", false);
        if (selector == bytes4(keccak256("swapAndStartBridgeTokensViaBaseBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,address,address,address,uint256,bytes,bool)[],(address,bytes,uint256,bytes))"))) return ("base", true);
        if (selector == bytes4(keccak256("startBridgeTokensViaCCTP((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))"))) return ("cctp", false);
        if (selector == bytes4(keccak256("swapAndStartBridgeTokensViaCCTP((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,address,address,address,uint256,bytes,bool)[],(address,bytes,uint256,bytes))"))) return ("cctp", true);
        if (selector == bytes4(keccak256("startBridgeTokensViaDeBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))"))) return ("debridge", false);
        if (selector == bytes4(keccak256("swapAndStartBridgeTokensViaDeBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,address,address,address,uint256,bytes,bool)[],(address,bytes,uint256,bytes))"))) return ("debridge", true);
        if (selector == bytes4(keccak256("startBridgeTokensViaGnosisBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))"))) return ("gnosis", false);
        if (selector == bytes4(keccak256("swapAndStartBridgeTokensViaGnosisBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,address,address,address,uint256,bytes,bool)[],(address,bytes,uint256,bytes))"))) return ("gnosis", true);
        if (selector == bytes4(keccak256("startBridgeTokensViaHop((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))"))) return ("hop", false);
        if (selector == bytes4(keccak256("swapAndStartBridgeTokensViaHop((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,address,address,address,uint256,bytes,bool)[],(address,bytes,uint256,bytes))"))) return ("hop", true);
        if (selector == bytes4(keccak256("startBridgeTokensViaLineaBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))"))) return ("linea", false);
        if (selector == bytes4(keccak256("swapAndStartBridgeTokensViaLineaBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,address,address,address,uint256,bytes,bool)[],(address,bytes,uint256,bytes))"))) return ("linea", true);
        if (selector == bytes4(keccak256("startBridgeTokensViaMayan((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))"))) return ("mayan", false);
        if (selector == bytes4(keccak256("swapAndStartBridgeTokensViaMayan((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,address,address,address,uint256,bytes,bool)[],(address,bytes,uint256,bytes))"))) return ("mayan", true);
        if (selector == bytes4(keccak256("startBridgeTokensViaOptimismBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))"))) return ("optimism", false);
        if (selector == bytes4(keccak256("swapAndStartBridgeTokensViaOptimismBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,address,address,address,uint256,bytes,bool)[],(address,bytes,uint256,bytes))"))) return ("optimism", true);
        if (selector == bytes4(keccak256("startBridgeTokensViaPolygonBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))"))) return ("polygon", false);
        if (selector == bytes4(keccak256("swapAndStartBridgeTokensViaPolygonBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,address,address,address,uint256,bytes,bool)[],(address,bytes,uint256,bytes))"))) return ("polygon", true);
        if (selector == bytes4(keccak256("startBridgeTokensViaRelay((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))"))) return ("relay", false);
        if (selector == bytes4(keccak256("swapAndStartBridgeTokensViaRelay((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,address,address,address,uint256,bytes,bool)[],(address,bytes,uint256,bytes))"))) return ("relay", true);
        if (selector == bytes4(keccak256("startBridgeTokensViaScrollBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))"))) return ("scroll", false);
        if (selector == bytes4(keccak256("swapAndStartBridgeTokensViaScrollBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,address,address,address,uint256,bytes,bool)[],(address,bytes,uint256,bytes))"))) return ("scroll", true);
        if (selector == bytes4(keccak256("startBridgeTokensViaStargate((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))"))) return ("stargate", false);
        if (selector == bytes4(keccak256("swapAndStartBridgeTokensViaStargate((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,address,address,address,uint256,bytes,bool)[],(address,bytes,uint256,bytes))"))) return ("stargate", true);
        if (selector == bytes4(keccak256("startBridgeTokensViaThorchain((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))"))) return ("thorchain", false);
        if (selector == bytes4(keccak256("swapAndStartBridgeTokensViaThorchain((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,address,address,address,uint256,bytes,bool)[],(address,bytes,uint256,bytes))"))) return ("thorchain", true);
        if (selector == bytes4(keccak256("startBridgeTokensViaZkSyncBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))"))) return ("zksync", false);
        if (selector == bytes4(keccak256("swapAndStartBridgeTokensViaZkSyncBridge((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,address,address,address,uint256,bytes,bool)[],(address,bytes,uint256,bytes))"))) return ("zksync", true);
        revert UnknownFacet(selector);
    }

    function _start(string memory key, BridgeData memory b, BridgeSpecificData memory d) private {
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

    function _swapAndStart(string memory key, BridgeData memory b, SwapData[] memory s, BridgeSpecificData memory d) private {
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

    function _validateBridge(string memory key, BridgeData memory b, BridgeSpecificData memory d) private view {
        if (keccak256(bytes(b.bridge)) != keccak256(bytes(key))) revert InvalidBridge(key, b.bridge);
        if (b.receiver == address(0)) revert InvalidReceiver();
        if (b.minAmount == 0) revert InvalidAmount();
        if (b.destinationChainId == block.chainid) revert CannotBridgeToSameNetwork();
        if (b.hasDestinationCall != (d.destinationCallData.length > 0)) revert InformationMismatch();
    }

    function _bridge(BridgeData memory b, BridgeSpecificData memory d, uint256 amount, uint256 nativeFee) private {
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
    function _deposit(SwapData[] memory swaps) private returns (uint256 total, uint256 nativeTotal) {
        for (uint256 k = 0; k < swaps.length; k++) {
            if (!swaps[k].requiresDeposit) continue;
            uint256 amount = swaps[k].fromAmount;
            total += amount;
            if (LibAsset.isNative(swaps[k].sendingAssetId)) nativeTotal += amount;
            else LibAsset.transferFrom(swaps[k].sendingAssetId, msg.sender, address(this), amount);
        }
        if (nativeTotal > msg.value) revert NativeAmountMismatch(nativeTotal, msg.value);
    }

    function _executeSwaps(SwapData[] memory swaps) private {
        for (uint256 k = 0; k < swaps.length; k++) {
            SwapData memory s = swaps[k];
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
