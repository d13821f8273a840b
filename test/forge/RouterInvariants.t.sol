// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Vm} from "forge-std/Vm.sol";
import {Bytecode} from "generated/Bytecode.sol";
import {Router} from "../../contracts/router/Router.sol";
import {CallData} from "../../contracts/router/CallExecutor.sol";
import {BridgeEndpoint} from "../../contracts/router/BridgeEndpoint.sol";
import {FeeCollector} from "../../contracts/router/FeeCollector.sol";
import {IPermit2, Permit2Proxy} from "../../contracts/router/Permit2Proxy.sol";
import {SwapData} from "../../contracts/router/Types.sol";
import {TestPermitToken} from "../../contracts/tokens/TestPermitToken.sol";
import {TestToken} from "../../contracts/tokens/TestToken.sol";
import {V2Pair} from "../../contracts/v2/V2Pair.sol";
import {V2Router} from "../../contracts/v2/V2Router.sol";
import {IERC20, IWETH, Sign, VictimSignatures, World} from "./Dictionary.sol";
import {Handler} from "./Handler.sol";

/// Issue 32's property test: random sequences of calls to every external function of every contract users approve
/// or bridges use (Handler.sol: the router, its executor, the bridge endpoint, the fee collector, the Permit2 proxy,
/// Permit2, the tokens, the exchange), made by an attacker with arguments from a dictionary (Dictionary.sol), and
/// after each call the invariants below: what Router.sol's header says the contracts guarantee. README.md here.
contract RouterInvariantsTest {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    address internal constant PERMIT2 = 0x000000000022D473030F116dDEE9F6B43aC78BA3;
    uint256 internal constant VICTIM_KEY = 0x71C7;
    uint256 internal constant ATTACKER_KEY = 0xA77AC;
    uint256 internal constant DEST_CHAIN = 10;
    uint256 internal constant MAX = type(uint256).max;

    Handler internal handler;
    World internal w;

    function setUp() public {
        vm.warp(1_767_225_600);
        w.admin = vm.addr(0xAD);
        w.relayer = vm.addr(0x4E1A);
        w.victim = vm.addr(VICTIM_KEY);
        w.attacker = vm.addr(ATTACKER_KEY);
        w.attackerKey = ATTACKER_KEY;
        vm.label(w.victim, "VICTIM");
        vm.label(w.attacker, "ATTACKER");

        _tokens();
        _exchange();
        _service();
        _holdings();
        _users();
        handler = new Handler(w, _victimSignatures());
        vm.label(address(handler), "Handler");
    }

    function _tokens() internal {
        TestToken a = new TestToken();
        a.initialize("Token A", "A", 18, address(this));
        TestToken b = new TestToken();
        b.initialize("Token B", "B", 6, address(this));
        TestPermitToken p = new TestPermitToken();
        p.initialize("USD Coin", "USDC", 6, address(this));
        bytes memory code = Bytecode.WETH9_CREATION;
        address weth;
        assembly {
            weth := create(0, add(code, 32), mload(code))
        }
        require(weth != address(0), "WETH9");
        vm.etch(PERMIT2, Bytecode.PERMIT2_RUNTIME);
        require(keccak256(PERMIT2.code) == Bytecode.PERMIT2_RUNTIME_HASH, "Permit2 code");
        (w.tokenA, w.tokenB, w.tokenP, w.weth, w.permit2) = (address(a), address(b), address(p), weth, PERMIT2);
        vm.label(w.tokenA, "tokenA");
        vm.label(w.tokenB, "tokenB");
        vm.label(w.tokenP, "tokenP");
        vm.label(w.weth, "WETH9");
        vm.label(PERMIT2, "Permit2");
    }

    function _mint(address token, address to, uint256 amount) internal {
        if (token == w.weth) {
            IWETH(w.weth).deposit{value: amount}();
            IERC20(w.weth).transfer(to, amount);
        } else {
            TestToken(token).mint(to, amount);
        }
    }

    /// V2 pairs A/B, B/P, A/WETH with liquidity (as sandbox/deploy.ts seeds them: reserves minted to the pair first).
    function _exchange() internal {
        V2Router v2 = new V2Router();
        v2.initialize(w.admin);
        w.v2Router = address(v2);
        w.pairAB = _pair(w.tokenA, w.tokenB, 1e27, 1e15);
        w.pairBP = _pair(w.tokenB, w.tokenP, 1e15, 1e15);
        w.pairAW = _pair(w.tokenA, w.weth, 1e27, 1e24);
        address[] memory pairs = new address[](3);
        (pairs[0], pairs[1], pairs[2]) = (w.pairAB, w.pairBP, w.pairAW);
        vm.prank(w.admin);
        v2.registerPairs(pairs);
        vm.label(w.v2Router, "V2Router");
    }

    function _pair(address t0, address t1, uint112 r0, uint112 r1) internal returns (address) {
        V2Pair pair = new V2Pair();
        _mint(t0, address(pair), r0);
        _mint(t1, address(pair), r1);
        pair.initialize(t0, t1, 3000, r0, r1);
        return address(pair);
    }

    /// The service's contracts, set up like scripts/deploy-contracts.ts does.
    function _service() internal {
        BridgeEndpoint endpoint = new BridgeEndpoint(w.admin, w.relayer);
        Router router = new Router(w.admin, address(endpoint));
        FeeCollector fc = new FeeCollector(w.admin, w.admin);
        Permit2Proxy proxy = new Permit2Proxy(address(router), PERMIT2);
        (w.endpoint, w.router, w.executor, w.feeCollector, w.proxy) = (address(endpoint), address(router), router.callExecutor(), address(fc), address(proxy));
        vm.startPrank(w.admin);
        endpoint.setRouter(address(router));
        endpoint.setRoutes(_routes());
        router.setPermit2Proxy(address(proxy));
        address[] memory targets = new address[](5);
        bytes4[] memory selectors = new bytes4[](5);
        (targets[0], selectors[0]) = (w.v2Router, V2Router.swapExactTokensForTokens.selector);
        (targets[1], selectors[1]) = (w.weth, IWETH.deposit.selector);
        (targets[2], selectors[2]) = (w.weth, IWETH.withdraw.selector);
        (targets[3], selectors[3]) = (w.feeCollector, FeeCollector.collectTokenFees.selector);
        (targets[4], selectors[4]) = (w.feeCollector, FeeCollector.collectNativeFees.selector);
        router.setAllowedCalls(targets, selectors, true);
        vm.stopPrank();
        vm.label(w.router, "Router");
        vm.label(w.executor, "CallExecutor");
        vm.label(w.endpoint, "BridgeEndpoint");
        vm.label(w.feeCollector, "FeeCollector");
        vm.label(w.proxy, "Permit2Proxy");
    }

    /// Source routes (this chain → DEST_CHAIN, for every bridge key of the dictionary: stargate's with a native fee)
    /// for A, P, WETH and the native coin (none for B); destination routes (DEST_CHAIN → this chain, across) for A, B,
    /// P and the native coin.
    function _routes() internal view returns (BridgeEndpoint.RouteConfig[] memory c) {
        address[4] memory source = [w.tokenA, w.tokenP, w.weth, address(0)];
        address[4] memory destination = [w.tokenA, w.tokenB, w.tokenP, address(0)];
        string[4] memory keys = ["across", "stargate", "relay", "cctp"];
        c = new BridgeEndpoint.RouteConfig[](20);
        uint256 n;
        for (uint256 k = 0; k < 4; k++) {
            for (uint256 b = 0; b < 4; b++) c[n++] = _route(keys[b], block.chainid, DEST_CHAIN, source[k], b == 1 ? 1e15 : 0);
            c[n++] = _route("across", DEST_CHAIN, block.chainid, destination[k], 0);
        }
    }

    function _route(string memory bridge, uint256 from, uint256 to, address token, uint128 nativeFee) internal view returns (BridgeEndpoint.RouteConfig memory) {
        uint8 decimals = token == w.tokenA || token == w.weth || token == address(0) ? 18 : 6;
        return BridgeEndpoint.RouteConfig({
            bridge: bridge,
            fromChainId: from,
            toChainId: to,
            fromToken: token,
            toToken: token,
            fromDecimals: decimals,
            toDecimals: decimals,
            feePpm: 500,
            fixedFee: 0,
            destinationGasFee: 0,
            minAmount: 1_000,
            maxAmount: 0,
            nativeFee: nativeFee
        });
    }

    /// The router's dust, the endpoint's liquidity, fees booked in the fee collector; the executor and the proxy
    /// hold nothing (what their contracts guarantee between transactions).
    function _holdings() internal {
        _mint(w.tokenA, w.router, 1e15);
        _mint(w.tokenB, w.router, 1_000);
        _mint(w.tokenP, w.router, 1_000);
        _mint(w.weth, w.router, 1e12);
        vm.deal(w.router, 1e15);

        _mint(w.tokenA, w.endpoint, 1e27);
        _mint(w.tokenB, w.endpoint, 1e15);
        _mint(w.tokenP, w.endpoint, 1e15);
        _mint(w.weth, w.endpoint, 1e24);
        vm.deal(w.endpoint, 1_000 ether);

        _mint(w.tokenA, w.feeCollector, 2e18);
        _mint(w.tokenP, w.feeCollector, 2e6);
        vm.deal(w.feeCollector, 1 ether);
        address[] memory who = new address[](4);
        address[] memory what = new address[](4);
        uint256[] memory amounts = new uint256[](4);
        (who[0], what[0], amounts[0]) = (w.victim, w.tokenA, 1e18);
        (who[1], what[1], amounts[1]) = (w.admin, w.tokenA, 1e18);
        (who[2], what[2], amounts[2]) = (w.victim, w.tokenP, 2e6);
        (who[3], what[3], amounts[3]) = (w.victim, address(0), 1 ether);
        vm.prank(w.admin);
        FeeCollector(payable(w.feeCollector)).seedBalances(who, what, amounts);
        vm.deal(w.relayer, 1 ether);
    }

    /// The victim: tokens, native coin, unlimited approvals of the router, Permit2, the endpoint and the exchange.
    /// The attacker: plenty of everything, unlimited approvals of the router, the endpoint, Permit2 and the exchange
    /// (the proxy's and the fee collector's are up to the fuzzer).
    function _users() internal {
        address[4] memory tokens = [w.tokenA, w.tokenB, w.tokenP, w.weth];
        vm.deal(address(this), 1e31);
        for (uint256 t = 0; t < 4; t++) {
            _mint(tokens[t], w.victim, t == 0 || t == 3 ? 1e24 : 1e12);
            _mint(tokens[t], w.attacker, t == 0 || t == 3 ? 1e30 : 1e24);
            address[4] memory spenders = [w.router, PERMIT2, w.endpoint, w.v2Router];
            for (uint256 s = 0; s < 4; s++) {
                vm.prank(w.victim);
                IERC20(tokens[t]).approve(spenders[s], MAX);
                vm.prank(w.attacker);
                IERC20(tokens[t]).approve(spenders[s], MAX);
            }
        }
        vm.deal(w.victim, 100 ether);
        vm.deal(w.attacker, 1e30);
    }

    /// The victim's signatures the attacker has seen: an EIP-2612 permit of tokenP for the proxy, a Permit2 transfer
    /// of tokenA for the proxy, and a Permit2 witness transfer of tokenP bound to a swapAndCall paying it back.
    function _victimSignatures() internal returns (VictimSignatures memory s) {
        s.permitValue = 7e6;
        s.permitDeadline = block.timestamp + 30 days;
        (s.v, s.r, s.s) = Sign.eip2612(VICTIM_KEY, w.tokenP, w.victim, w.proxy, s.permitValue, s.permitDeadline);

        s.permit2 = IPermit2.PermitTransferFrom(IPermit2.TokenPermissions(w.tokenA, 5e18), 0, block.timestamp + 30 days);
        s.permit2Signature = Sign.permit2(VICTIM_KEY, PERMIT2, s.permit2, w.proxy);

        s.witnessPermit = IPermit2.PermitTransferFrom(IPermit2.TokenPermissions(w.tokenP, 3e6), 1, block.timestamp + 30 days);
        s.witnessCalldata = abi.encodeCall(
            Router.swapAndCall, (bytes32("victim"), "wallet", "", w.victim, w.tokenP, 3e6, 0, new SwapData[](0), new CallData[](0))
        );
        bytes32 witness = Sign.lifiWitness(Permit2Proxy(payable(w.proxy)), s.witnessCalldata);
        s.witnessSignature = Sign.permit2Witness(VICTIM_KEY, PERMIT2, s.witnessPermit, w.proxy, witness, Permit2Proxy(payable(w.proxy)).WITNESS_TYPE_STRING());
    }

    // ============================================================================================ forge's targets

    function targetContracts() public view returns (address[] memory t) {
        t = new address[](1);
        t[0] = address(handler);
    }

    /// Who sends the fuzzer's transactions to the handler (which acts as the attacker or the relayer whoever sends):
    /// a fresh address, so that forge never sends them from an account the invariants watch.
    function targetSenders() public pure returns (address[] memory t) {
        t = new address[](1);
        t[0] = address(0xF0022E2);
    }

    // ============================================================================================ invariants

    /// No token or native-coin balance of the victim ever decreases.
    function invariant_victimBalances() public view {
        handler.checkVictimBalances();
    }

    /// The victim's allowances (ERC-20 to every dictionary address, Permit2's) never change, but for the victim's
    /// own permit of the proxy; the victim's Permit2 signature that only its signer may send stays unused.
    function invariant_victimAllowances() public view {
        handler.checkVictimAllowances();
    }

    /// The router never holds less than its starting dust, and no call outside the router's own transactions takes
    /// anything from the router, the executor or the proxy.
    function invariant_routerNeverBelowStart() public view {
        handler.checkRouterNeverBelowStart();
    }

    /// No transaction through the router (or the proxy, or the endpoint's destination call) lowers the router's
    /// balances: it spends only what it brought. (What is above them goes back to the caller for every asset the
    /// transaction declares; output its call data pays in an asset it does not declare stays where it was paid —
    /// the caller's own, counted as stranded, and nobody can take it later: the takenViolations check.)
    function invariant_routerUnchangedByItsTransactions() public view {
        handler.checkRouterUnchangedByItsTransactions();
    }

    /// A transaction never lowers the executor's holdings and never raises the proxy's: they hold nothing but what
    /// was sent to them directly and callers' own undeclared outputs (counted), and no one else's funds.
    function invariant_executorAndProxyKeepNothing() public view {
        handler.checkExecutorAndProxyKeepNothing();
    }

    /// No allowance from the router, the executor or the proxy remains (ERC-20 or Permit2), to anyone.
    function invariant_noStandingApprovals() public view {
        handler.checkNoStandingApprovals();
    }

    /// The endpoint holds its liquidity plus the deposits it escrowed, less what it refunded and released.
    function invariant_endpointSolvent() public view {
        handler.checkEndpointSolvent();
    }

    /// The fee collector holds at least its start and all fees booked; nobody's booked fees but the caller's fall.
    function invariant_feeCollector() public view {
        handler.checkFeeCollector();
    }

    /// The admin, the relayer, the exchange router and Permit2 lose nothing; the pools' reserve product never falls.
    function invariant_bystanders() public view {
        handler.checkBystanders();
    }
}
