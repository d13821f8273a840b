// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Minimal, LibAsset} from "../libraries/LibAsset.sol";
import {BridgeData, BridgeSpecificData, DepositRequest, IBridgeEndpoint, SwapData} from "./Types.sol";
import {CallData, CallExecutor} from "./CallExecutor.sol";

/// The Permit2 proxy (Permit2Proxy.sol) says, while it calls the router, on whose behalf it does.
interface IOnBehalfOf {
    function onBehalfOf() external view returns (address);
}

/// The service's router ("diamond"), all facets in one contract, executing the call data the service builds
/// (src/core/transactions/abi.ts, build.ts). What it guarantees, whoever calls it with whatever data:
///
/// - **It moves only its caller's funds.** Funds come in only from `msg.sender` (transferFrom, credited by what
///   arrived, so a fee-on-transfer token is never over-credited) or as `msg.value`. The router never calls a
///   target the caller chose: each SwapData runs in the swap executor (CallExecutor.sol, a separate contract that
///   users never approve and that holds nothing between transactions), and only when its (callTo, selector) is on
///   the admin's allowlist, which refuses the token-moving selectors (transfer, transferFrom, approve, permit…) and
///   the router's own contracts. The executor approves `approveTo` (callTo, or another allowlisted contract) for
///   exactly fromAmount and resets the approval to 0 after the call.
/// - **It ends every transaction holding what it held before.** Every asset a transaction touches is recorded with
///   the router's balance before it (the native coin without msg.value); at the end a balance below it reverts the
///   transaction, and whatever is above it (unused msg.value, unspent input, dust) goes back to the caller. So a
///   transaction spends only what it deposited plus what its own swaps produced, never what the router holds.
/// - **Approvals it grants are exact and reset**: the bridge endpoint's for the bridged amount, the executor's for
///   one swap or call; there is no standing approval to anyone.
/// - **One reentrancy lock** (transient storage) on every external entry point.
/// - The admin is set in the constructor (never zero), so there is no initialisation window.
///
/// Call semantics:
/// - SwapData run in order, the router holding the intermediate balances. Before them the router pulls from the
///   caller the fromAmount of every SwapData with requiresDeposit (transferFrom, or msg.value for the native coin).
///   A SwapData whose callTo is the router itself is a nested bridge leg (the destination gas refuel): its call data
///   is a startBridgeTokensVia<B> / swapAndStartBridgeTokensVia<B> call, run inside this transaction with the
///   SwapData's fromAmount (already deposited) as its funds.
/// - swapTokensGeneric pays the receiver what the swaps produced of the last receivingAssetId (at least
///   minAmountOut) and returns any unspent input to the caller.
/// - startBridgeTokensVia<B> pulls BridgeData.minAmount and hands it to the bridge endpoint;
///   swapAndStartBridgeTokensVia<B> bridges what its swaps produced (at least minAmount) when hasSourceSwaps, else
///   pulls minAmount like startBridgeTokensVia<B> (its SwapData are side calls). Native coin sent beyond the
///   deposits and the bridged amount is the bridge's messaging fee, forwarded to the endpoint (which returns what
///   exceeds its fee; the router returns it to the caller).
/// - swapAndCompleteBridgeTokens (destination) takes the bridged funds from its caller (msg.value, or the caller's
///   whole allowance of transferredAssetId), runs the swaps, pays the receiver at least minAmountOut, and returns
///   what is left of the bridged token to the caller (the bridge executor keeps it as the destination gas fee).
/// - Contract calls: swapAndCall (one chain) and swapAndCompleteBridgeTokensWithCalls (destination) run the swaps,
///   then each CallData through the call executor, then pay the receiver what is left; see abi.ts.
/// - Called by the Permit2 proxy (`permit2Proxy`), the router returns what it returns to the proxy's user
///   (`onBehalfOf`), and that user is the bridge refund address.
contract Router {
    address public admin;
    address public bridgeEndpoint;
    /// The Permit2 / EIP-2612 proxy of this chain (0 when none): its user, not the proxy, gets refunds.
    address public permit2Proxy;
    /// Runs every swap and every contract call (created by the constructor, CREATE2 salt 0).
    address public immutable callExecutor;
    /// (target, selector) pairs a SwapData may call, set by the admin.
    mapping(address => mapping(bytes4 => bool)) public allowedCalls;
    /// How many selectors of a target are allowed: a SwapData's approveTo must be callTo or such a target.
    mapping(address => uint256) public allowedSelectorCount;

    /// The assets a transaction touched and the router's balance of each before it (see the contract comment).
    uint256 private constant MAX_ASSETS = 16;
    struct Ledger {
        address[16] assets;
        uint256[16] start;
        uint256 count;
        /// Who deposits: the caller.
        address payer;
        /// Who gets back what is left, and the bridge refunds: the caller, or the Permit2 proxy's user.
        address refundee;
    }

    /// What a leg may take: the caller's funds (transferFrom; the native coin from msg.value), or for a nested leg
    /// (callTo = the router) the amount its SwapData carries, already held by the router.
    struct Funding {
        bool nested;
        address asset;
        uint256 amount;
        /// Native coin still free for this leg (msg.value, or the nested amount): deposits, then the bridge's fee.
        uint256 native;
    }

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
    event CallAllowed(address indexed target, bytes4 indexed selector, bool allowed);
    event AdminChanged(address admin);
    event BridgeEndpointChanged(address endpoint);
    event Permit2ProxyChanged(address proxy);

    error ZeroAdmin();
    error NotAdmin();
    error NoSwapData();
    error InvalidReceiver();
    error InvalidAmount();
    error InvalidBridge(string expected, string given);
    error CannotBridgeToSameNetwork();
    error InformationMismatch();
    error NativeAmountMismatch(uint256 needed, uint256 sent);
    error ContractCallNotAllowed(address callTo);
    error CallNotAllowed(address callTo, bytes4 selector);
    error SpenderNotAllowed(address approveTo);
    error SelectorNeverAllowed(bytes4 selector);
    error TargetNeverAllowed(address target);
    error CumulativeSlippageTooHigh(uint256 minAmount, uint256 receivedAmount);
    error InsufficientFunding(address asset, uint256 needed, uint256 available);
    error BalanceDecreased(address asset, uint256 before, uint256 afterwards);
    error TooManyAssets();
    error UnknownFacet(bytes4 selector);
    error NotSelf();
    error Reentrancy();

    constructor(address admin_, address bridgeEndpoint_) {
        if (admin_ == address(0)) revert ZeroAdmin();
        admin = admin_;
        bridgeEndpoint = bridgeEndpoint_;
        callExecutor = address(new CallExecutor{salt: bytes32(0)}());
    }

    receive() external payable {}

    // ---------------------------------------------------------------------------------------------- admin

    modifier onlyAdmin() {
        if (msg.sender != admin) revert NotAdmin();
        _;
    }

    function transferAdmin(address admin_) external onlyAdmin nonReentrant {
        if (admin_ == address(0)) revert ZeroAdmin();
        admin = admin_;
        emit AdminChanged(admin_);
    }

    function setBridgeEndpoint(address endpoint) external onlyAdmin nonReentrant {
        bridgeEndpoint = endpoint;
        emit BridgeEndpointChanged(endpoint);
    }

    function setPermit2Proxy(address proxy) external onlyAdmin nonReentrant {
        permit2Proxy = proxy;
        emit Permit2ProxyChanged(proxy);
    }

    /// Allows (or disallows) each targets[k] to be called with selectors[k] by a SwapData. A target must be a
    /// contract, none of the router's own (router, executor, bridge endpoint, Permit2 proxy); no selector that moves
    /// or approves tokens is ever allowed (a token contract may be listed for its wrap functions only:
    /// deposit() / withdraw(uint256) of the wrapped native coin, which move the executor's own funds).
    function setAllowedCalls(address[] calldata targets, bytes4[] calldata selectors, bool allowed) external onlyAdmin nonReentrant {
        if (targets.length != selectors.length) revert InformationMismatch();
        for (uint256 k = 0; k < targets.length; k++) {
            address target = targets[k];
            bytes4 selector = selectors[k];
            if (allowed) {
                _checkAllowable(target, selector);
                if (allowedCalls[target][selector]) continue;
                allowedCalls[target][selector] = true;
                allowedSelectorCount[target] += 1;
            } else {
                if (!allowedCalls[target][selector]) continue;
                allowedCalls[target][selector] = false;
                allowedSelectorCount[target] -= 1;
            }
            emit CallAllowed(target, selector, allowed);
        }
    }

    function _checkAllowable(address target, bytes4 selector) private view {
        if (
            target.code.length == 0 || target == address(this) || target == callExecutor || target == bridgeEndpoint
                || target == permit2Proxy
        ) revert TargetNeverAllowed(target);
        if (
            LibAsset.movesTokens(selector)
                || selector == bytes4(keccak256("execute((address,address,address,uint256,bytes,uint256,address))"))
                || selector == bytes4(keccak256("swap((address,address,address,address,uint256,bytes,bool))")) || selector == bytes4(0)
        ) revert SelectorNeverAllowed(selector);
    }

    // ---------------------------------------------------------------------------------------------- same chain

    function swapTokensGeneric(
        bytes32 transactionId,
        string memory integrator,
        string memory referrer,
        address receiver,
        uint256 minAmountOut,
        SwapData[] memory swapData
    ) external payable nonReentrant {
        if (swapData.length == 0) revert NoSwapData();
        if (receiver == address(0)) revert InvalidReceiver();
        (Ledger memory l, Funding memory f) = _open();
        address fromAsset = swapData[0].sendingAssetId;
        address toAsset = swapData[swapData.length - 1].receivingAssetId;
        _touch(l, fromAsset);
        _touch(l, toAsset);
        uint256 deposited = _deposit(l, f, swapData);
        _executeSwaps(l, swapData);
        uint256 received = LibAsset.balanceOf(toAsset, address(this)) - _startOf(l, toAsset) - _free(f, toAsset);
        if (received < minAmountOut) revert CumulativeSlippageTooHigh(minAmountOut, received);
        LibAsset.transfer(toAsset, receiver, received);
        _settle(l);
        emit LiFiGenericSwapCompleted(transactionId, integrator, referrer, receiver, fromAsset, toAsset, deposited, received);
    }

    // ---------------------------------------------------------------------------------------------- destination

    function swapAndCompleteBridgeTokens(
        bytes32 transactionId,
        SwapData[] memory swapData,
        address transferredAssetId,
        address receiver,
        uint256 minAmountOut
    ) external payable nonReentrant {
        if (receiver == address(0)) revert InvalidReceiver();
        (Ledger memory l, Funding memory f) = _open();
        address toAsset = swapData.length > 0 ? swapData[swapData.length - 1].receivingAssetId : transferredAssetId;
        _touch(l, transferredAssetId);
        _touch(l, toAsset);
        _receiveBridged(l, f, transferredAssetId);
        _executeSwaps(l, swapData);
        uint256 received = LibAsset.balanceOf(toAsset, address(this)) - _startOf(l, toAsset);
        if (received < minAmountOut) revert CumulativeSlippageTooHigh(minAmountOut, received);
        LibAsset.transfer(toAsset, receiver, received);
        _settle(l);
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
    ) external payable nonReentrant {
        _swapAndCall(CallArgs(transactionId, integrator, referrer, receiver, sendingAssetId, fromAmount, minAmountOut), swapData, calls);
    }

    /// swapAndCall's scalar arguments (one memory struct: the function has more than the stack holds).
    struct CallArgs {
        bytes32 transactionId;
        string integrator;
        string referrer;
        address receiver;
        address sendingAssetId;
        uint256 fromAmount;
        uint256 minAmountOut;
    }

    function _swapAndCall(CallArgs memory a, SwapData[] memory swapData, CallData[] memory calls) private {
        if (a.receiver == address(0)) revert InvalidReceiver();
        if (a.fromAmount == 0) revert InvalidAmount();
        address toAsset = swapData.length > 0 ? swapData[swapData.length - 1].receivingAssetId : a.sendingAssetId;
        uint256 total = _checkCalls(calls, toAsset);
        for (uint256 k = 0; k < swapData.length; k++) if (swapData[k].requiresDeposit) revert InformationMismatch();
        if (swapData.length > 0 && swapData[0].sendingAssetId != a.sendingAssetId) revert InformationMismatch();
        (Ledger memory l, Funding memory f) = _open();
        _touch(l, a.sendingAssetId);
        _touch(l, toAsset);
        if (LibAsset.isNative(a.sendingAssetId)) {
            if (msg.value != a.fromAmount) revert NativeAmountMismatch(a.fromAmount, msg.value);
        } else if (msg.value != 0) {
            revert NativeAmountMismatch(0, msg.value);
        }
        uint256 deposited = _pull(l, f, a.sendingAssetId, a.fromAmount);
        _executeSwaps(l, swapData);
        uint256 received = LibAsset.balanceOf(toAsset, address(this)) - _startOf(l, toAsset);
        _checkReceived(received, a.minAmountOut, total);
        if (a.sendingAssetId != toAsset) emit LiFiSwappedGeneric(a.transactionId, a.integrator, a.referrer, a.sendingAssetId, toAsset, deposited, received);
        _runCalls(a.transactionId, calls);
        LibAsset.transfer(toAsset, a.receiver, received - total);
        _settle(l);
        emit LiFiGenericSwapCompleted(a.transactionId, a.integrator, a.referrer, a.receiver, a.sendingAssetId, toAsset, deposited, received);
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
    ) external payable nonReentrant {
        if (receiver == address(0)) revert InvalidReceiver();
        address toAsset = swapData.length > 0 ? swapData[swapData.length - 1].receivingAssetId : transferredAssetId;
        uint256 total = _checkCalls(calls, toAsset);
        (Ledger memory l, Funding memory f) = _open();
        _touch(l, transferredAssetId);
        _touch(l, toAsset);
        uint256 bridged = _receiveBridged(l, f, transferredAssetId);
        try this.runSwapsForCalls(swapData, l, toAsset, minAmountOut, total) returns (Ledger memory updated, uint256 received) {
            l = updated;
            if (swapData.length > 0) emit LiFiSwappedGeneric(transactionId, "", "", transferredAssetId, toAsset, bridged, received);
            _runCalls(transactionId, calls);
            LibAsset.transfer(toAsset, receiver, received - total);
            emit LiFiTransferCompleted(transactionId, toAsset, receiver, received, block.timestamp);
        } catch {
            LibAsset.transfer(transferredAssetId, receiver, bridged);
            emit LiFiTransferCompleted(transactionId, transferredAssetId, receiver, bridged, block.timestamp);
        }
        _settle(l);
    }

    /// The destination swaps and their checks, as an external call of the router to itself (inside
    /// swapAndCompleteBridgeTokensWithCalls, under its lock) so that a failure is undone as a whole. Takes the
    /// caller's ledger and returns it with the assets the swaps touched.
    function runSwapsForCalls(SwapData[] memory swapData, Ledger memory l, address toAsset, uint256 minAmountOut, uint256 callsTotal)
        external
        returns (Ledger memory, uint256 received)
    {
        if (msg.sender != address(this) || !_locked()) revert NotSelf();
        _executeSwaps(l, swapData);
        received = LibAsset.balanceOf(toAsset, address(this)) - _startOf(l, toAsset);
        _checkReceived(received, minAmountOut, callsTotal);
        return (l, received);
    }

    /// Every call takes the calls' asset, targets none of the router's own contracts and moves or approves no
    /// tokens of the executor by itself (a contract call's target pulls what it is approved for), except a transfer
    /// of the calls' asset itself (paying someone; the executor lets it spend no more than the call's amount);
    /// returns what the calls take in all.
    function _checkCalls(CallData[] memory calls, address asset) private view returns (uint256 total) {
        for (uint256 k = 0; k < calls.length; k++) {
            CallData memory c = calls[k];
            if (c.sendingAssetId != asset) revert InformationMismatch();
            if (c.target == address(this) || c.target == callExecutor || c.target == bridgeEndpoint || c.target == permit2Proxy) revert TargetNeverAllowed(c.target);
            bytes4 selector = LibAsset.selectorOf(c.callData);
            if (LibAsset.refusedCall(c.target, selector, asset)) revert SelectorNeverAllowed(selector);
            total += c.amount;
        }
    }

    function _checkReceived(uint256 received, uint256 minAmountOut, uint256 callsTotal) private pure {
        if (received < minAmountOut) revert CumulativeSlippageTooHigh(minAmountOut, received);
        if (received < callsTotal) revert CumulativeSlippageTooHigh(callsTotal, received);
    }

    /// Each call through the executor, in order: `amount` handed over (transfer, or value), run, event.
    function _runCalls(bytes32 transactionId, CallData[] memory calls) private {
        address executor = callExecutor;
        for (uint256 k = 0; k < calls.length; k++) {
            CallData memory c = calls[k];
            uint256 value;
            if (LibAsset.isNative(c.sendingAssetId)) value = c.amount;
            else LibAsset.transfer(c.sendingAssetId, executor, c.amount);
            bool success = CallExecutor(payable(executor)).execute{value: value}(c);
            emit ContractCallExecuted(transactionId, k, c.target, success, c.amount);
        }
    }

    // ---------------------------------------------------------------------------------------------- lock

    /// The reentrancy lock of every external entry point (transient storage: one slot, cleared at the end).
    bytes32 private constant LOCK_SLOT = keccak256("router.lock");

    modifier nonReentrant() {
        bytes32 slot = LOCK_SLOT;
        if (_locked()) revert Reentrancy();
        assembly {
            tstore(slot, 1)
        }
        _;
        assembly {
            tstore(slot, 0)
        }
    }

    function _locked() private view returns (bool locked) {
        bytes32 slot = LOCK_SLOT;
        assembly {
            locked := tload(slot)
        }
    }

    // ---------------------------------------------------------------------------------------------- bridges

    /// startBridgeTokensVia<B>(BridgeData, <B>Data) and swapAndStartBridgeTokensVia<B>(BridgeData, SwapData[], <B>Data)
    /// for every bridge facet of abi.ts (BRIDGE_FACETS), dispatched here by selector: one decoder for all of them.
    fallback() external payable nonReentrant {
        (string memory key, bool withSwaps) = _facet(msg.sig);
        (Ledger memory l, Funding memory f) = _open();
        if (withSwaps) {
            (BridgeData memory b, SwapData[] memory s, BridgeSpecificData memory d) = abi.decode(msg.data[4:], (BridgeData, SwapData[], BridgeSpecificData));
            _swapAndStart(l, f, key, b, s, d);
        } else {
            (BridgeData memory b, BridgeSpecificData memory d) = abi.decode(msg.data[4:], (BridgeData, BridgeSpecificData));
            _start(l, f, key, b, d);
        }
        _settle(l);
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

    function _start(Ledger memory l, Funding memory f, string memory key, BridgeData memory b, BridgeSpecificData memory d) private {
        _validateBridge(key, b, d);
        if (b.hasSourceSwaps) revert InformationMismatch();
        _touch(l, b.sendingAssetId);
        uint256 amount = _pull(l, f, b.sendingAssetId, b.minAmount);
        _bridge(l, f, b, d, amount);
    }

    function _swapAndStart(Ledger memory l, Funding memory f, string memory key, BridgeData memory b, SwapData[] memory s, BridgeSpecificData memory d)
        private
    {
        _validateBridge(key, b, d);
        if (s.length == 0) revert NoSwapData();
        address asset = b.sendingAssetId;
        _touch(l, asset);
        // this leg's own balance of the asset starts at what the router held before it, without the funds still free
        uint256 start = LibAsset.balanceOf(asset, address(this)) - _free(f, asset);
        _deposit(l, f, s);
        uint256 amount;
        if (!b.hasSourceSwaps) {
            amount = _pull(l, f, asset, b.minAmount);
            _executeSwaps(l, s);
        } else {
            _executeSwaps(l, s);
            amount = LibAsset.balanceOf(asset, address(this)) - start - _free(f, asset);
            if (amount < b.minAmount) revert CumulativeSlippageTooHigh(b.minAmount, amount);
        }
        _bridge(l, f, b, d, amount);
    }

    function _validateBridge(string memory key, BridgeData memory b, BridgeSpecificData memory d) private view {
        if (keccak256(bytes(b.bridge)) != keccak256(bytes(key))) revert InvalidBridge(key, b.bridge);
        if (b.receiver == address(0)) revert InvalidReceiver();
        if (b.minAmount == 0) revert InvalidAmount();
        if (b.destinationChainId == block.chainid) revert CannotBridgeToSameNetwork();
        if (b.hasDestinationCall != (d.destinationCallData.length > 0)) revert InformationMismatch();
    }

    /// Hands `amount` to the bridge endpoint with the leg's free native coin as the messaging fee: the approval
    /// exact and reset, the caller (or the proxy's user) the refund address.
    function _bridge(Ledger memory l, Funding memory f, BridgeData memory b, BridgeSpecificData memory d, uint256 amount) private {
        address endpoint = bridgeEndpoint;
        uint256 value = f.native;
        f.native = 0;
        bool native = LibAsset.isNative(b.sendingAssetId);
        if (native) value += amount;
        else LibAsset.approve(b.sendingAssetId, endpoint, amount);
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
        r.refundTo = l.refundee;
        IBridgeEndpoint(endpoint).deposit{value: value}(r);
        if (!native && IERC20Minimal(b.sendingAssetId).allowance(address(this), endpoint) != 0) LibAsset.approve(b.sendingAssetId, endpoint, 0);
        emit LiFiTransferStarted(b);
    }

    /// A SwapData calling the router itself: the bridge leg in its call data, run here with the SwapData's
    /// fromAmount of sendingAssetId (deposited by the enclosing call) as its only funds.
    function _nestedLeg(Ledger memory l, SwapData memory s) private {
        bytes memory data = s.callData;
        if (data.length < 4) revert UnknownFacet(bytes4(0));
        bytes4 selector;
        assembly {
            selector := mload(add(data, 32))
        }
        (string memory key, bool withSwaps) = _facet(selector);
        bytes memory args = new bytes(data.length - 4);
        assembly {
            mcopy(add(args, 32), add(data, 36), sub(mload(data), 4))
        }
        bool native = LibAsset.isNative(s.sendingAssetId);
        Funding memory f = Funding({nested: true, asset: s.sendingAssetId, amount: native ? 0 : s.fromAmount, native: native ? s.fromAmount : 0});
        if (withSwaps) {
            (BridgeData memory b, SwapData[] memory ss, BridgeSpecificData memory d) = abi.decode(args, (BridgeData, SwapData[], BridgeSpecificData));
            _swapAndStart(l, f, key, b, ss, d);
        } else {
            (BridgeData memory b, BridgeSpecificData memory d) = abi.decode(args, (BridgeData, BridgeSpecificData));
            _start(l, f, key, b, d);
        }
    }

    // ---------------------------------------------------------------------------------------------- funds

    /// A transaction's ledger (the native coin recorded without msg.value) and its top-level funding.
    function _open() private view returns (Ledger memory l, Funding memory f) {
        l.payer = msg.sender;
        l.refundee = msg.sender;
        address proxy = permit2Proxy;
        if (proxy != address(0) && msg.sender == proxy) {
            address user = IOnBehalfOf(proxy).onBehalfOf();
            if (user != address(0)) l.refundee = user;
        }
        l.assets[0] = LibAsset.NATIVE;
        l.start[0] = address(this).balance - msg.value;
        l.count = 1;
        f.native = msg.value;
    }

    /// Records `asset` with the router's balance now, unless recorded already. Called before any balance of it moves.
    function _touch(Ledger memory l, address asset) private view {
        for (uint256 k = 0; k < l.count; k++) if (l.assets[k] == asset) return;
        if (l.count == MAX_ASSETS) revert TooManyAssets();
        l.assets[l.count] = asset;
        l.start[l.count] = IERC20Minimal(asset).balanceOf(address(this));
        l.count += 1;
    }

    function _startOf(Ledger memory l, address asset) private pure returns (uint256) {
        for (uint256 k = 0; k < l.count; k++) if (l.assets[k] == asset) return l.start[k];
        revert InformationMismatch();
    }

    /// The end of every transaction: no touched balance below its start; what is above it goes to the refundee.
    function _settle(Ledger memory l) private {
        for (uint256 k = 0; k < l.count; k++) {
            address asset = l.assets[k];
            uint256 balance = LibAsset.balanceOf(asset, address(this));
            if (balance < l.start[k]) revert BalanceDecreased(asset, l.start[k], balance);
            if (balance > l.start[k]) LibAsset.transfer(asset, l.refundee, balance - l.start[k]);
        }
    }

    /// What of `asset` the funding still holds for the leg (part of the router's balance, not yet used).
    function _free(Funding memory f, address asset) private pure returns (uint256) {
        if (LibAsset.isNative(asset)) return f.native;
        return f.nested && asset == f.asset ? f.amount : 0;
    }

    /// Takes `amount` of `asset` for the leg: from the caller (what arrived), or out of the leg's funding.
    function _pull(Ledger memory l, Funding memory f, address asset, uint256 amount) private returns (uint256) {
        _touch(l, asset);
        if (LibAsset.isNative(asset)) {
            if (amount > f.native) revert NativeAmountMismatch(amount, f.native);
            f.native -= amount;
            return amount;
        }
        if (f.nested) {
            if (asset != f.asset || amount > f.amount) revert InsufficientFunding(asset, amount, asset == f.asset ? f.amount : 0);
            f.amount -= amount;
            return amount;
        }
        return LibAsset.pull(asset, l.payer, amount);
    }

    /// Pulls the fromAmount of every SwapData with requiresDeposit; returns what arrived in all.
    function _deposit(Ledger memory l, Funding memory f, SwapData[] memory swaps) private returns (uint256 total) {
        for (uint256 k = 0; k < swaps.length; k++) if (swaps[k].requiresDeposit) total += _pull(l, f, swaps[k].sendingAssetId, swaps[k].fromAmount);
    }

    /// The bridged funds a completion call works on: msg.value, or the caller's whole allowance (what arrived).
    function _receiveBridged(Ledger memory l, Funding memory f, address asset) private returns (uint256) {
        if (LibAsset.isNative(asset)) {
            uint256 value = f.native;
            f.native = 0;
            return value;
        }
        return _pull(l, f, asset, IERC20Minimal(asset).allowance(msg.sender, address(this)));
    }

    // ---------------------------------------------------------------------------------------------- swaps

    function _executeSwaps(Ledger memory l, SwapData[] memory swaps) private {
        for (uint256 k = 0; k < swaps.length; k++) {
            SwapData memory s = swaps[k];
            if (s.callTo == address(this)) _nestedLeg(l, s);
            else _swap(l, s);
        }
    }

    /// One allowlisted swap, run by the executor with fromAmount handed over; its output comes back to the router.
    function _swap(Ledger memory l, SwapData memory s) private {
        bytes4 selector = LibAsset.selectorOf(s.callData);
        if (!allowedCalls[s.callTo][selector]) revert CallNotAllowed(s.callTo, selector);
        if (s.approveTo != s.callTo && allowedSelectorCount[s.approveTo] == 0) revert SpenderNotAllowed(s.approveTo);
        _touch(l, s.sendingAssetId);
        _touch(l, s.receivingAssetId);
        address executor = callExecutor;
        uint256 value;
        if (LibAsset.isNative(s.sendingAssetId)) value = s.fromAmount;
        else LibAsset.transfer(s.sendingAssetId, executor, s.fromAmount);
        CallExecutor(payable(executor)).swap{value: value}(s);
    }
}
