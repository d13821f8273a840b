// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Router} from "../../contracts/router/Router.sol";
import {CallData, CallExecutor} from "../../contracts/router/CallExecutor.sol";
import {BridgeEndpoint} from "../../contracts/router/BridgeEndpoint.sol";
import {FeeCollector} from "../../contracts/router/FeeCollector.sol";
import {IPermit2, Permit2Proxy} from "../../contracts/router/Permit2Proxy.sol";
import {SwapData} from "../../contracts/router/Types.sol";
import {TestPermitToken} from "../../contracts/tokens/TestPermitToken.sol";
import {TestToken} from "../../contracts/tokens/TestToken.sol";
import {V2Pair} from "../../contracts/v2/V2Pair.sol";
import {V2Router} from "../../contracts/v2/V2Router.sol";
import {Dictionary, IERC20, IPermit2More, IWETH, Needs, Rng, Sign, VictimSignatures, World} from "./Dictionary.sol";

/// The invariant tests' only target (RouterInvariants.t.sol). Each external function is one action of the attacker
/// (vm.prank(attacker)), or of the honest relayer carrying out what the attacker deposited, on an entry point of the
/// router, the executor, the bridge endpoint, the fee collector, the Permit2 proxy, Permit2, the tokens or the
/// exchange, with arguments built from its seed (Dictionary.sol). An action whose call reverts reverts as a whole
/// (forge counts it in the "reverts" column and keeps the state as it was).
///
/// After every action that succeeded the handler compares the holdings of the router, the executor and the proxy
/// with those before it (`_afterStep`): through the router or the proxy, the router's and the executor's must be
/// exactly what they were (nothing left behind, nothing someone left there handed out) and the proxy's not higher;
/// any other action may add to them (a donation: a transfer to them, a release or refund paid to them) but never
/// take from them. It also books what the bridge
/// endpoint escrowed, refunded and released, for its solvency invariant.
contract Handler is Dictionary {
    uint256 internal constant HOLDERS = 3; // router, executor, proxy
    uint256 internal constant ASSETS = 5;
    /// The ids of the deposits released here (made on the other chain) start here, apart from this chain's.
    uint256 internal constant RELEASE_IDS = 1_000_000;

    struct Violation {
        bytes4 action;
        address holder;
        address asset;
        uint256 before;
        uint256 afterwards;
    }

    error LeftInRouter(bytes4 action, address asset, uint256 before, uint256 afterwards);
    error ExecutorOrProxyChanged(bytes4 action, address holder, address asset, uint256 before, uint256 afterwards);
    error TakenFromServiceContract(bytes4 action, address holder, address asset, uint256 before, uint256 afterwards);
    error HoldsMoreThanDonated(address holder, address asset, uint256 held, uint256 donated);
    error BalanceDecreased(address account, address asset, uint256 start, uint256 current);
    error AllowanceChanged(address owner, address token, address spender, uint256 start, uint256 current);
    error Permit2AllowanceGranted(address owner, address token, address spender, uint256 amount);
    error VictimPermit2NonceUsed(uint256 bitmap);
    error StandingApproval(address owner, address token, address spender, uint256 amount);
    error EndpointShort(address asset, uint256 balance, uint256 owed);
    error FeeCollectorShort(address asset, uint256 balance, uint256 booked);
    error BookedFeesDecreased(address integrator, address asset, uint256 start, uint256 current);
    error PoolValueDecreased(address pair, uint256 startK, uint256 k);

    /// What the current action goes through: the router (or the proxy, or the executor), else false.
    bool internal throughRouter;
    Violation[] public routerViolations;
    Violation[] public leftoverViolations;
    Violation[] public takenViolations;
    /// holder (executor, proxy) → asset → what other actions added (donations), in all.
    mapping(address => mapping(address => uint256)) public donated;
    /// holder (router, executor) → asset → what callers' own undeclared outputs left there, in all.
    mapping(address => mapping(address => uint256)) public stranded;

    mapping(address => mapping(address => uint256)) public startBalance; // account → asset
    mapping(address => mapping(address => uint256)) public startVictimAllowance; // token → spender
    mapping(address => mapping(address => uint256)) public startBooked; // integrator → asset
    mapping(address => uint256) public startK; // pair → reserve0·reserve1

    // the bridge endpoint's books: what it escrowed (deposits, as credited), refunded and paid out on releases
    uint256 public seenDeposits;
    mapping(address => uint256) public deposited;
    mapping(address => uint256) public refunded;
    mapping(address => uint256) public releasedOut;

    /// Counts of actions that succeeded, by kind (the report's detail beside forge's per-function table).
    mapping(bytes32 => uint256) public succeeded;

    constructor(World memory world, VictimSignatures memory signatures) {
        _initDictionary(world, signatures);
        address[8] memory accounts = [w.victim, w.router, w.endpoint, w.feeCollector, w.admin, w.relayer, w.v2Router, w.permit2];
        for (uint256 i = 0; i < accounts.length; i++) {
            for (uint256 j = 0; j < ASSETS; j++) startBalance[accounts[i]][assets[j]] = _bal(assets[j], accounts[i]);
        }
        for (uint256 t = 0; t < tokens.length; t++) {
            for (uint256 s = 0; s < addrs.length; s++) startVictimAllowance[tokens[t]][addrs[s]] = IERC20(tokens[t]).allowance(w.victim, addrs[s]);
        }
        for (uint256 i = 0; i < addrs.length; i++) {
            for (uint256 j = 0; j < ASSETS; j++) startBooked[addrs[i]][assets[j]] = FeeCollector(payable(w.feeCollector)).getTokenBalance(addrs[i], assets[j]);
        }
        address[3] memory pairs = [w.pairAB, w.pairBP, w.pairAW];
        for (uint256 i = 0; i < 3; i++) startK[pairs[i]] = _k(pairs[i]);
    }

    // ============================================================================================ step bookkeeping

    function _holders() internal view returns (address[3] memory) {
        return [w.router, w.executor, w.proxy];
    }

    function _holdings() internal view returns (uint256[15] memory h) {
        address[3] memory holders = _holders();
        for (uint256 i = 0; i < HOLDERS; i++) {
            for (uint256 j = 0; j < ASSETS; j++) h[i * ASSETS + j] = _bal(assets[j], holders[i]);
        }
    }

    modifier step() {
        uint256[15] memory before = _holdings();
        _;
        _afterStep(before);
    }

    function _afterStep(uint256[15] memory before) internal {
        uint256[15] memory afterwards = _holdings();
        address[3] memory holders = _holders();
        for (uint256 i = 0; i < HOLDERS; i++) {
            for (uint256 j = 0; j < ASSETS; j++) {
                uint256 b = before[i * ASSETS + j];
                uint256 a = afterwards[i * ASSETS + j];
                Violation memory v = Violation(msg.sig, holders[i], assets[j], b, a);
                if (throughRouter) {
                    // the router's and the executor's never lower; the proxy's not higher (it hands what anyone sent
                    // it to its next user, by design). Higher router or executor balances are the caller's own
                    // output in an asset its call data paid but its SwapData did not declare: stranded by the caller
                    // itself (like a transfer to the contract), counted, and never available to anyone after
                    if (i == 0 && a < b) routerViolations.push(v);
                    else if ((i == 1 && a < b) || (i == 2 && a > b)) leftoverViolations.push(v);
                    else if (a > b) stranded[holders[i]][assets[j]] += a - b;
                } else if (a < b) {
                    takenViolations.push(v);
                } else if (i > 0) {
                    donated[holders[i]][assets[j]] += a - b;
                }
            }
        }
        _syncDeposits();
    }

    function _syncDeposits() internal {
        uint256 count = BridgeEndpoint(payable(w.endpoint)).depositCount();
        for (uint256 id = seenDeposits + 1; id <= count; id++) {
            (address token,,, uint256 amount) = BridgeEndpoint(payable(w.endpoint)).deposits(id);
            deposited[token] += amount;
        }
        seenDeposits = count;
    }

    /// Calls `to` as `from`; a revert reverts the action with the same data.
    function _as(address from, address to, uint256 value, bytes memory data) internal returns (bytes memory ret) {
        vm.prank(from);
        bool ok;
        (ok, ret) = to.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
    }

    function _attacker(address to, uint256 value, bytes memory data) internal returns (bytes memory) {
        return _as(w.attacker, to, value, data);
    }

    function _count(string memory kind) internal {
        succeeded[keccak256(bytes(kind))] += 1;
    }

    // ============================================================================================ router

    function routerSwapTokensGeneric(uint256 seed) external step {
        throughRouter = true;
        Rng memory r = _rng(seed);
        Needs memory n;
        bytes memory data = _genericCall(r, 0, n);
        _attacker(w.router, _valueFor(r, n.value), data);
        _count("swapTokensGeneric");
    }

    function routerSwapAndCall(uint256 seed) external step {
        throughRouter = true;
        Rng memory r = _rng(seed);
        Needs memory n;
        bytes memory data = _swapAndCallCall(r, 0, n);
        _attacker(w.router, _valueFor(r, n.value), data);
        _count("swapAndCall");
    }

    /// The attacker as a bridge's executor on the destination: approves the router for the bridged amount (the
    /// completion takes the caller's whole allowance), calls, and approves the router without limit again.
    function routerSwapAndCompleteBridgeTokens(uint256 seed) external step {
        throughRouter = true;
        _complete(seed, false);
        _count("swapAndCompleteBridgeTokens");
    }

    function routerSwapAndCompleteBridgeTokensWithCalls(uint256 seed) external step {
        throughRouter = true;
        _complete(seed, true);
        _count("swapAndCompleteBridgeTokensWithCalls");
    }

    function _complete(uint256 seed, bool withCalls) internal {
        Rng memory r = _rng(seed);
        bytes memory data;
        Needs memory n;
        // draw until the wanted variant comes up (the builder picks one of the two)
        for (uint256 k = 0; k < 8; k++) {
            n = Needs(0, NATIVE, 0);
            data = _completeCall(r, 0, _bridgeAsset(r), n);
            if ((bytes4(data) == Router.swapAndCompleteBridgeTokensWithCalls.selector) == withCalls) break;
        }
        uint256 allowance = _chance(r, 220) ? n.payAmount : _amount(r, n.payAsset);
        if (n.payAsset != NATIVE) _attacker(n.payAsset, 0, abi.encodeCall(IERC20.approve, (w.router, allowance)));
        _attacker(w.router, _valueFor(r, n.value), data);
        if (n.payAsset != NATIVE) _attacker(n.payAsset, 0, abi.encodeCall(IERC20.approve, (w.router, type(uint256).max)));
    }

    function routerStartBridge(uint256 seed) external step {
        throughRouter = true;
        Rng memory r = _rng(seed);
        Needs memory n;
        bytes memory data = _bridgeCall(r, 0, false, n);
        _attacker(w.router, _valueFor(r, n.value), data);
        _count("startBridgeTokensVia");
    }

    function routerSwapAndStartBridge(uint256 seed) external step {
        throughRouter = true;
        Rng memory r = _rng(seed);
        Needs memory n;
        bytes memory data = _bridgeCall(r, 0, true, n);
        _attacker(w.router, _valueFor(r, n.value), data);
        _count("swapAndStartBridgeTokensVia");
    }

    /// The router's other entry points: runSwapsForCalls (the router's call to itself), the admin functions, the
    /// fallback with an unknown selector or a facet selector with other arguments.
    function routerOther(uint256 seed) external step {
        throughRouter = true;
        Rng memory r = _rng(seed);
        uint256 kind = _u8(r) % 8;
        bytes memory data;
        if (kind == 0) {
            Router.Ledger memory l;
            l.payer = w.victim;
            l.refundee = w.attacker;
            l.count = 1;
            Needs memory n;
            data = abi.encodeCall(Router.runSwapsForCalls, (_swaps(r, 0, 1, false, n), l, _asset(r), 0, 0));
        } else if (kind == 1) {
            data = abi.encodeCall(Router.transferAdmin, (_addr(r)));
        } else if (kind == 2) {
            data = abi.encodeCall(Router.setBridgeEndpoint, (_addr(r)));
        } else if (kind == 3) {
            data = abi.encodeCall(Router.setPermit2Proxy, (_addr(r)));
        } else if (kind == 4) {
            address[] memory targets = new address[](1);
            bytes4[] memory selectors = new bytes4[](1);
            targets[0] = _addr(r);
            selectors[0] = bytes4(_data(r, _asset(r), 1, 1));
            data = abi.encodeCall(Router.setAllowedCalls, (targets, selectors, true));
        } else if (kind == 5) {
            data = abi.encodePacked(bytes4(uint32(_u8(r) << 24 | _u8(r) << 16 | _u8(r))), _data(r, _asset(r), _moderate(r), 0));
        } else if (kind == 6) {
            // a facet selector with another facet's arguments
            data = _bridgeCall(r, 0, _chance(r, 128), Needs(0, NATIVE, 0));
            data = abi.encodePacked(_facetSelector(_u8(r) % bridgeKeys.length, _chance(r, 128)), _slice(data, 4));
        } else {
            data = "";
        }
        _attacker(w.router, kind == 7 ? 0 : _value(r), data);
        _count("routerOther");
    }

    function _slice(bytes memory data, uint256 from) internal pure returns (bytes memory out) {
        if (data.length <= from) return "";
        out = new bytes(data.length - from);
        for (uint256 k = 0; k < out.length; k++) out[k] = data[from + k];
    }

    // ============================================================================================ executor

    /// The executor's entry points called directly (only the router may).
    function executorDirect(uint256 seed) external step {
        throughRouter = true;
        Rng memory r = _rng(seed);
        address asset = _asset(r);
        if (_chance(r, 128)) {
            CallData memory c = _callData(r, asset, _moderate(r), 0);
            _attacker(w.executor, _value(r), abi.encodeCall(CallExecutor.execute, (c)));
        } else {
            SwapData memory s = _swapData(r, 0, false);
            _mutateSwap(r, s, 0);
            _attacker(w.executor, _value(r), abi.encodeCall(CallExecutor.swap, (s)));
        }
        _count("executorDirect");
    }

    // ============================================================================================ Permit2 proxy

    /// callDiamondWithPermit2: the victim's signature (its owner is the sender, so another sender cannot use it),
    /// or the attacker's own for the token and amount its router call deposits.
    function proxyPermit2(uint256 seed) external step {
        throughRouter = true;
        Rng memory r = _rng(seed);
        Needs memory n;
        bytes memory data = _routerCall(r, 0, n);
        IPermit2.PermitTransferFrom memory permit;
        bytes memory signature;
        if (_chance(r, 64)) {
            permit = sig.permit2;
            signature = sig.permit2Signature;
        } else {
            permit = _attackerPermit(r, n);
            signature = Sign.permit2(w.attackerKey, w.permit2, permit, w.proxy);
        }
        _attacker(w.proxy, _valueFor(r, n.value), abi.encodeCall(Permit2Proxy.callDiamondWithPermit2, (data, permit, signature)));
        _count("callDiamondWithPermit2");
    }

    function _attackerPermit(Rng memory r, Needs memory n) internal returns (IPermit2.PermitTransferFrom memory p) {
        p.permitted.token = n.payAsset != NATIVE && _chance(r, 220) ? n.payAsset : _token(r);
        p.permitted.amount = n.payAsset == p.permitted.token && _chance(r, 220) ? n.payAmount : _amount(r, p.permitted.token);
        p.nonce = attackerNonce++;
        p.deadline = block.timestamp + 3_600;
    }

    /// callDiamondWithPermit2Witness: the victim's witness relayed with its own call data (allowed: it executes what
    /// the victim signed, a round trip), with other call data, with the victim's plain signature, or the attacker's.
    function proxyPermit2Witness(uint256 seed) external step {
        throughRouter = true;
        Rng memory r = _rng(seed);
        uint256 k = _u8(r) % 20;
        // 0: the victim's witness relayed as signed (once: then its nonce is used), 1: with other call data,
        // 2: the victim's plain signature, 3: the attacker's own witness
        uint256 mode = k < 2 ? 0 : k < 5 ? 1 : k < 7 ? 2 : 3;
        address signer = w.victim;
        IPermit2.PermitTransferFrom memory permit = sig.witnessPermit;
        bytes memory signature = sig.witnessSignature;
        Needs memory n;
        bytes memory data = sig.witnessCalldata;
        if (mode == 1) {
            data = _routerCall(r, 0, n);
        } else if (mode == 2) {
            permit = sig.permit2;
            signature = sig.permit2Signature;
            data = _routerCall(r, 0, n);
        } else if (mode == 3) {
            signer = w.attacker;
            data = _routerCall(r, 0, n);
            permit = _attackerPermit(r, n);
            bytes32 witness = Sign.lifiWitness(Permit2Proxy(payable(w.proxy)), data);
            signature = Sign.permit2Witness(w.attackerKey, w.permit2, permit, w.proxy, witness, Permit2Proxy(payable(w.proxy)).WITNESS_TYPE_STRING());
        }
        _attacker(w.proxy, _valueFor(r, n.value), abi.encodeCall(Permit2Proxy.callDiamondWithPermit2Witness, (data, signer, permit, signature)));
        _count(mode == 0 ? "witnessVictimRelayed" : "callDiamondWithPermit2Witness");
    }

    /// callDiamondWithEIP2612Signature: the victim's permit sent by the attacker (then only the attacker's own
    /// allowance of the proxy can be used), the attacker's own permit, or another token (no permit function).
    function proxyEIP2612(uint256 seed) external step {
        throughRouter = true;
        Rng memory r = _rng(seed);
        uint256 mode = _u8(r) % 3;
        Needs memory n;
        bytes memory data = _routerCall(r, 0, n);
        address token = w.tokenP;
        uint256 amount = sig.permitValue;
        uint256 deadline = sig.permitDeadline;
        (uint8 v, bytes32 rs, bytes32 ss) = (sig.v, sig.r, sig.s);
        if (mode == 1) {
            amount = n.payAsset == w.tokenP && _chance(r, 200) ? n.payAmount : _amount(r, w.tokenP);
            deadline = block.timestamp + 3_600;
            (v, rs, ss) = Sign.eip2612(w.attackerKey, w.tokenP, w.attacker, w.proxy, amount, deadline);
        } else if (mode == 2) {
            token = n.payAsset != NATIVE ? n.payAsset : _token(r);
            amount = n.payAsset == token ? n.payAmount : _amount(r, token);
        }
        // without a permit of its own the attacker's allowance of the proxy is what can be used: sometimes give one
        if (mode != 1 && _chance(r, 128)) _attacker(token, 0, abi.encodeCall(IERC20.approve, (w.proxy, amount)));
        bytes memory call = abi.encodeCall(Permit2Proxy.callDiamondWithEIP2612Signature, (token, amount, deadline, v, rs, ss, data));
        _attacker(w.proxy, _valueFor(r, n.value), call);
        _count("callDiamondWithEIP2612Signature");
    }

    // ============================================================================================ bridge endpoint

    /// deposit called directly by the attacker.
    function endpointDeposit(uint256 seed) external step {
        throughRouter = false;
        Rng memory r = _rng(seed);
        address asset = _bridgeAsset(r);
        uint256 amount = _chance(r, 200) ? _moderate(r) : _amount(r, asset);
        uint256 value = (asset == NATIVE ? amount : 0) + (_chance(r, 128) ? 1e15 : 0);
        _attacker(w.endpoint, _valueFor(r, value), abi.encodeCall(BridgeEndpoint.deposit, (_depositRequest(r, asset, amount))));
        _count("endpoint.deposit");
    }

    /// The relayer's and the admin's functions, called by the attacker.
    function endpointRestricted(uint256 seed) external step {
        throughRouter = false;
        Rng memory r = _rng(seed);
        uint256 kind = _u8(r) % 6;
        bytes memory data;
        if (kind == 0) data = abi.encodeCall(BridgeEndpoint.refund, (_depositId(r)));
        else if (kind == 1) data = abi.encodeCall(BridgeEndpoint.markReleased, (_depositId(r)));
        else if (kind == 2) data = abi.encodeCall(BridgeEndpoint.cancel, (DEST_CHAIN, _depositId(r)));
        else if (kind == 3) data = abi.encodeCall(BridgeEndpoint.release, (_releaseRequest(r)));
        else if (kind == 4) data = abi.encodeCall(BridgeEndpoint.setRouter, (_addr(r)));
        else data = abi.encodeCall(BridgeEndpoint.setRoutes, (new BridgeEndpoint.RouteConfig[](1)));
        _attacker(w.endpoint, 0, data);
        _count("endpointRestricted");
    }

    function _depositId(Rng memory r) internal view returns (uint256) {
        uint256 count = BridgeEndpoint(payable(w.endpoint)).depositCount();
        return count == 0 || _chance(r, 20) ? _u8(r) : 1 + _u8(r) % count;
    }

    /// A release as the relayer makes it for a deposit on the other chain (DEST_CHAIN): the depositor (the attacker)
    /// chose the amount, receivers, minimum and destination call.
    function _releaseRequest(Rng memory r) internal returns (BridgeEndpoint.ReleaseRequest memory q) {
        q.fromChainId = DEST_CHAIN;
        q.depositId = RELEASE_IDS + (_chance(r, 240) ? ++releaseNonce : _u8(r) % (releaseNonce + 1));
        q.bridge = "across";
        q.transactionId = bytes32(uint256(0xe1) << 248 | _u8(r));
        uint256 k = _u8(r) % 4;
        q.fromToken = k == 0 ? w.tokenA : k == 1 ? w.tokenB : k == 2 ? w.tokenP : NATIVE;
        q.amount = _chance(r, 220) ? _moderate(r) : _amount(r, q.fromToken);
        q.receiver = _payee(r);
        if (_chance(r, 128)) {
            q.receiverOnDestination = _chance(r, 200) ? _payee(r) : _addr(r);
            q.destinationMinAmount = _chance(r, 220) ? 0 : _amount(r, q.fromToken);
        } else {
            q.receiverOnDestination = _chance(r, 230) ? w.router : _addr(r);
            q.destinationCallData = _completeCall(r, 0, q.fromToken, Needs(0, NATIVE, 0));
        }
    }

    function relayerRelease(uint256 seed) external step {
        Rng memory r = _rng(seed);
        BridgeEndpoint.ReleaseRequest memory q = _releaseRequest(r);
        // paying an address directly is a donation to it; a destination call goes through the router
        throughRouter = q.destinationCallData.length > 0;
        address toToken = BridgeEndpoint(payable(w.endpoint)).getRoute(q.bridge, q.fromChainId, block.chainid, q.fromToken).toToken;
        bytes memory ret = _as(w.relayer, w.endpoint, 0, abi.encodeCall(BridgeEndpoint.release, (q)));
        releasedOut[toToken] += abi.decode(ret, (uint256));
        _count(throughRouter ? "releaseWithCall" : "release");
    }

    /// The relayer refunding (or cancelling, or marking released) a deposit.
    function relayerRefund(uint256 seed) external step {
        throughRouter = false;
        Rng memory r = _rng(seed);
        uint256 id = _depositId(r);
        uint256 kind = _u8(r) % 4;
        if (kind <= 1) {
            _as(w.relayer, w.endpoint, 0, abi.encodeCall(BridgeEndpoint.refund, (id)));
            (address token,,, uint256 amount) = BridgeEndpoint(payable(w.endpoint)).deposits(id);
            refunded[token] += amount;
            _count("refund");
        } else if (kind == 2) {
            _as(w.relayer, w.endpoint, 0, abi.encodeCall(BridgeEndpoint.markReleased, (id)));
        } else {
            // a release that will not happen (ids of the other chain's deposits: RELEASE_IDS on)
            _as(w.relayer, w.endpoint, 0, abi.encodeCall(BridgeEndpoint.cancel, (DEST_CHAIN, RELEASE_IDS + _u8(r) % (releaseNonce + 2))));
        }
    }

    // ============================================================================================ fee collector

    function feeCollectorCall(uint256 seed) external step {
        throughRouter = false;
        Rng memory r = _rng(seed);
        uint256 kind = _u8(r) % 5;
        address asset = _asset(r);
        uint256 a = _chance(r, 200) ? _moderate(r) : _amount(r, asset);
        uint256 b = _chance(r, 128) ? 0 : _moderate(r);
        bytes memory data;
        uint256 value;
        if (kind == 0) {
            data = abi.encodeCall(FeeCollector.collectTokenFees, (asset, a, b, _addr(r)));
        } else if (kind == 1) {
            data = abi.encodeCall(FeeCollector.collectNativeFees, (a, b, _addr(r)));
            value = _valueFor(r, a + b);
        } else if (kind == 2) {
            data = abi.encodeCall(FeeCollector.withdrawIntegratorFees, (asset));
        } else if (kind == 3) {
            data = abi.encodeCall(FeeCollector.batchWithdrawIntegratorFees, (assets));
        } else {
            address[] memory who = new address[](1);
            address[] memory what = new address[](1);
            uint256[] memory amounts = new uint256[](1);
            who[0] = w.attacker;
            what[0] = asset;
            amounts[0] = a;
            data = abi.encodeCall(FeeCollector.seedBalances, (who, what, amounts));
        }
        _attacker(w.feeCollector, value, data);
        _count("feeCollector");
    }

    // ============================================================================================ Permit2

    function permit2Direct(uint256 seed) external step {
        throughRouter = false;
        Rng memory r = _rng(seed);
        uint256 kind = _u8(r) % 6;
        address token = _token(r);
        uint256 amount = _amount(r, token);
        bytes memory data;
        if (kind == 0) {
            data = abi.encodeCall(
                IPermit2.permitTransferFrom, (sig.permit2, IPermit2.SignatureTransferDetails(w.attacker, sig.permit2.permitted.amount), w.victim, sig.permit2Signature)
            );
        } else if (kind == 1) {
            bytes32 witness = Sign.lifiWitness(Permit2Proxy(payable(w.proxy)), sig.witnessCalldata);
            data = abi.encodeCall(
                IPermit2.permitWitnessTransferFrom,
                (
                    sig.witnessPermit,
                    IPermit2.SignatureTransferDetails(w.attacker, sig.witnessPermit.permitted.amount),
                    w.victim,
                    witness,
                    Permit2Proxy(payable(w.proxy)).WITNESS_TYPE_STRING(),
                    sig.witnessSignature
                )
            );
        } else if (kind == 2) {
            address from = _addr(r);
            data = abi.encodeCall(IPermit2More.transferFrom, (from, w.attacker, uint160(amount), token));
        } else if (kind == 3) {
            data = abi.encodeCall(IPermit2More.approve, (token, _addr(r), uint160(amount), uint48(block.timestamp + _u8(r))));
        } else if (kind == 4) {
            data = abi.encodeCall(IPermit2More.invalidateUnorderedNonces, (0, _u8(r)));
        } else {
            IPermit2.PermitTransferFrom memory p = _attackerPermit(r, Needs(0, token, amount));
            bytes memory signature = Sign.permit2(w.attackerKey, w.permit2, p, w.attacker);
            data = abi.encodeCall(IPermit2.permitTransferFrom, (p, IPermit2.SignatureTransferDetails(_addr(r), p.permitted.amount), _addr(r), signature));
        }
        _attacker(w.permit2, 0, data);
        _count("permit2Direct");
    }

    // ============================================================================================ tokens, exchange

    /// Plain token and native-coin calls: transfers (to anyone: donations to the service's contracts included),
    /// approvals, transferFrom of anyone's tokens, the victim's permit sent first by the attacker, WETH, mint.
    function tokenCall(uint256 seed) external step {
        throughRouter = false;
        Rng memory r = _rng(seed);
        uint256 kind = _u8(r) % 9;
        address token = _token(r);
        uint256 amount = _chance(r, 200) ? _moderate(r) : _amount(r, token);
        if (kind == 0) {
            _attacker(token, 0, abi.encodeCall(IERC20.transfer, (_addr(r), amount)));
        } else if (kind == 1) {
            // (the router's, endpoint's, Permit2's and the exchange's stay unlimited, as set up: limited, they would
            // only make the attacker's later calls revert)
            address spender = _addr(r);
            bool usual = spender == w.router || spender == w.endpoint || spender == w.permit2 || spender == w.v2Router;
            _attacker(token, 0, abi.encodeCall(IERC20.approve, (spender, usual || _chance(r, 128) ? type(uint256).max : amount)));
        } else if (kind == 2) {
            _attacker(token, 0, abi.encodeCall(IERC20.transferFrom, (_addr(r), _chance(r, 200) ? w.attacker : _addr(r), amount)));
        } else if (kind == 3) {
            _attacker(w.tokenP, 0, _victimPermitCall());
            _count("victimPermitFrontRun");
        } else if (kind == 4) {
            _attacker(w.weth, _chance(r, 128) ? amount : 0, _chance(r, 128) ? abi.encodeCall(IWETH.deposit, ()) : abi.encodeCall(IWETH.withdraw, (amount)));
        } else if (kind == 5) {
            // native coin to anyone (the router's, executor's, proxy's, endpoint's receive())
            _attacker(_addr(r), _chance(r, 200) ? _moderate(r) : _value(r), "");
        } else if (kind == 6) {
            _attacker(token, 0, abi.encodeCall(TestToken.mint, (w.attacker, amount)));
        } else if (kind == 7) {
            _attacker(token, 0, abi.encodeCall(TestToken.initialize, ("X", "X", 18, w.attacker)));
        } else {
            // back to the usual approvals
            address[6] memory spenders = [w.router, w.endpoint, w.permit2, w.v2Router, w.feeCollector, w.proxy];
            _attacker(token, 0, abi.encodeCall(IERC20.approve, (spenders[_u8(r) % 6], type(uint256).max)));
        }
        _count("tokenCall");
    }

    /// The exchange called directly: swaps paying anyone, a pair's swap, the set-up functions.
    function exchangeDirect(uint256 seed) external step {
        throughRouter = false;
        Rng memory r = _rng(seed);
        uint256 kind = _u8(r) % 4;
        (address from, address to) = _pairTokens(r);
        uint256 amount = _chance(r, 220) ? _moderate(r) : _amount(r, from);
        if (kind <= 1) {
            _attacker(w.v2Router, 0, _v2Call(from, to, amount, _chance(r, 128) ? w.attacker : _addr(r)));
        } else if (kind == 2) {
            address pair = V2Router(w.v2Router).getPair(from, to);
            _attacker(from, 0, abi.encodeCall(IERC20.transfer, (pair, amount)));
            uint256 out = _quoteV2(from, to, amount);
            bool zeroOut = V2Pair(pair).token0() == to;
            _attacker(pair, 0, abi.encodeCall(V2Pair.swap, (zeroOut ? out : 0, zeroOut ? 0 : out, _chance(r, 128) ? w.attacker : _addr(r), "")));
        } else {
            address[] memory pairs = new address[](1);
            pairs[0] = _addr(r);
            _attacker(w.v2Router, 0, abi.encodeCall(V2Router.registerPairs, (pairs)));
        }
        _count("exchangeDirect");
    }

    // ============================================================================================ checks

    function _k(address pair) internal view returns (uint256) {
        (uint112 r0, uint112 r1,) = V2Pair(pair).getReserves();
        return uint256(r0) * uint256(r1);
    }

    function _first(Violation[] storage list) internal view returns (bool found, Violation memory v) {
        if (list.length == 0) return (false, v);
        return (true, list[0]);
    }

    function checkVictimBalances() external view {
        for (uint256 j = 0; j < ASSETS; j++) {
            uint256 current = _bal(assets[j], w.victim);
            if (current < startBalance[w.victim][assets[j]]) revert BalanceDecreased(w.victim, assets[j], startBalance[w.victim][assets[j]], current);
        }
    }

    /// The victim's ERC-20 allowances to every dictionary address are what they were (the victim's own permit for
    /// the proxy may have been sent by someone: then exactly its value), no Permit2 allowance of the victim's
    /// exists, and the victim's plain Permit2 signature (only its signer may use it) is unused.
    function checkVictimAllowances() external view {
        for (uint256 t = 0; t < tokens.length; t++) {
            for (uint256 s = 0; s < addrs.length; s++) {
                uint256 start = startVictimAllowance[tokens[t]][addrs[s]];
                uint256 current = IERC20(tokens[t]).allowance(w.victim, addrs[s]);
                if (current == start) continue;
                if (tokens[t] == w.tokenP && addrs[s] == w.proxy && current == sig.permitValue) continue;
                revert AllowanceChanged(w.victim, tokens[t], addrs[s], start, current);
            }
            for (uint256 s = 0; s < addrs.length; s++) {
                (uint160 amount,,) = IPermit2More(w.permit2).allowance(w.victim, tokens[t], addrs[s]);
                if (amount != 0) revert Permit2AllowanceGranted(w.victim, tokens[t], addrs[s], amount);
            }
        }
        uint256 bitmap = IPermit2More(w.permit2).nonceBitmap(w.victim, 0);
        if (bitmap & (1 << sig.permit2.nonce) != 0) revert VictimPermit2NonceUsed(bitmap);
    }

    function checkRouterNeverBelowStart() external view {
        for (uint256 j = 0; j < ASSETS; j++) {
            uint256 current = _bal(assets[j], w.router);
            if (current < startBalance[w.router][assets[j]]) revert BalanceDecreased(w.router, assets[j], startBalance[w.router][assets[j]], current);
        }
        (bool found, Violation memory v) = _first(takenViolations);
        if (found) revert TakenFromServiceContract(v.action, v.holder, v.asset, v.before, v.afterwards);
    }

    function checkRouterUnchangedByItsTransactions() external view {
        (bool found, Violation memory v) = _first(routerViolations);
        if (found) revert LeftInRouter(v.action, v.asset, v.before, v.afterwards);
    }

    function checkExecutorAndProxyKeepNothing() external view {
        (bool found, Violation memory v) = _first(leftoverViolations);
        if (found) revert ExecutorOrProxyChanged(v.action, v.holder, v.asset, v.before, v.afterwards);
        address[2] memory holders = [w.executor, w.proxy];
        for (uint256 i = 0; i < 2; i++) {
            for (uint256 j = 0; j < ASSETS; j++) {
                uint256 held = _bal(assets[j], holders[i]);
                uint256 explained = donated[holders[i]][assets[j]] + stranded[holders[i]][assets[j]];
                if (held > explained) revert HoldsMoreThanDonated(holders[i], assets[j], held, explained);
            }
        }
    }

    /// No ERC-20 allowance from the router, the executor or the proxy to any dictionary address, and no Permit2
    /// allowance from them to anyone.
    function checkNoStandingApprovals() external view {
        address[3] memory owners = _holders();
        for (uint256 i = 0; i < HOLDERS; i++) {
            for (uint256 t = 0; t < tokens.length; t++) {
                for (uint256 s = 0; s < addrs.length; s++) {
                    uint256 a = IERC20(tokens[t]).allowance(owners[i], addrs[s]);
                    if (a != 0) revert StandingApproval(owners[i], tokens[t], addrs[s], a);
                    (uint160 p,,) = IPermit2More(w.permit2).allowance(owners[i], tokens[t], addrs[s]);
                    if (p != 0) revert Permit2AllowanceGranted(owners[i], tokens[t], addrs[s], p);
                }
            }
        }
    }

    /// The endpoint holds its starting liquidity plus what it escrowed, less what it refunded and paid out.
    function checkEndpointSolvent() external view {
        for (uint256 j = 0; j < ASSETS; j++) {
            address a = assets[j];
            uint256 balance = _bal(a, w.endpoint);
            uint256 owed = startBalance[w.endpoint][a] + deposited[a];
            if (balance + refunded[a] + releasedOut[a] < owed) revert EndpointShort(a, balance, owed - refunded[a] - releasedOut[a]);
        }
    }

    /// The fee collector holds at least its start and everything booked to the dictionary's integrators; no booked
    /// balance other than the attacker's decreases.
    function checkFeeCollector() external view {
        FeeCollector fc = FeeCollector(payable(w.feeCollector));
        for (uint256 j = 0; j < ASSETS; j++) {
            address a = assets[j];
            uint256 balance = _bal(a, w.feeCollector);
            if (balance < startBalance[w.feeCollector][a]) revert BalanceDecreased(w.feeCollector, a, startBalance[w.feeCollector][a], balance);
            uint256 booked;
            for (uint256 i = 0; i < addrs.length; i++) {
                uint256 b = fc.getTokenBalance(addrs[i], a);
                booked += b;
                if (addrs[i] != w.attacker && b < startBooked[addrs[i]][a]) revert BookedFeesDecreased(addrs[i], a, startBooked[addrs[i]][a], b);
            }
            if (balance < booked) revert FeeCollectorShort(a, balance, booked);
        }
    }

    /// The admin, the relayer, the exchange router and Permit2 lose nothing; the pools' reserve product never falls.
    function checkBystanders() external view {
        address[4] memory accounts = [w.admin, w.relayer, w.v2Router, w.permit2];
        for (uint256 i = 0; i < accounts.length; i++) {
            for (uint256 j = 0; j < ASSETS; j++) {
                uint256 current = _bal(assets[j], accounts[i]);
                if (current < startBalance[accounts[i]][assets[j]]) revert BalanceDecreased(accounts[i], assets[j], startBalance[accounts[i]][assets[j]], current);
            }
        }
        address[3] memory pairs = [w.pairAB, w.pairBP, w.pairAW];
        for (uint256 i = 0; i < 3; i++) {
            uint256 k = _k(pairs[i]);
            if (k < startK[pairs[i]]) revert PoolValueDecreased(pairs[i], startK[pairs[i]], k);
        }
    }

    function successes(string calldata kind) external view returns (uint256) {
        return succeeded[keccak256(bytes(kind))];
    }
}
