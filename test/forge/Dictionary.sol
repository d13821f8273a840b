// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Vm} from "forge-std/Vm.sol";
import {Router} from "../../contracts/router/Router.sol";
import {CallData, CallExecutor} from "../../contracts/router/CallExecutor.sol";
import {BridgeEndpoint} from "../../contracts/router/BridgeEndpoint.sol";
import {FeeCollector} from "../../contracts/router/FeeCollector.sol";
import {IPermit2, Permit2Proxy} from "../../contracts/router/Permit2Proxy.sol";
import {BridgeData, BridgeSpecificData, DepositRequest, SwapData} from "../../contracts/router/Types.sol";
import {TestPermitToken} from "../../contracts/tokens/TestPermitToken.sol";
import {V2Router} from "../../contracts/v2/V2Router.sol";

interface IERC20 {
    function balanceOf(address) external view returns (uint256);
    function allowance(address, address) external view returns (uint256);
    function approve(address, uint256) external returns (bool);
    function transfer(address, uint256) external returns (bool);
    function transferFrom(address, address, uint256) external returns (bool);
}

interface IWETH {
    function deposit() external payable;
    function withdraw(uint256) external;
}

/// Permit2's AllowanceTransfer and nonce functions (its SignatureTransfer ones are Permit2Proxy.sol's IPermit2).
interface IPermit2More {
    function DOMAIN_SEPARATOR() external view returns (bytes32);
    function allowance(address owner, address token, address spender) external view returns (uint160 amount, uint48 expiration, uint48 nonce);
    function approve(address token, address spender, uint160 amount, uint48 expiration) external;
    function transferFrom(address from, address to, uint160 amount, address token) external;
    function nonceBitmap(address owner, uint256 wordPos) external view returns (uint256);
    function invalidateUnorderedNonces(uint256 wordPos, uint256 mask) external;
}

/// Everything setUp deployed (RouterInvariants.t.sol).
struct World {
    address tokenA; // TestToken, 18 decimals
    address tokenB; // TestToken, 6 decimals
    address tokenP; // TestPermitToken (EIP-2612), 6 decimals
    address weth; // WETH9
    address router;
    address executor;
    address endpoint;
    address proxy;
    address feeCollector;
    address v2Router;
    address pairAB;
    address pairBP;
    address pairAW;
    address permit2;
    address admin;
    address relayer;
    address victim;
    address attacker;
    uint256 attackerKey;
}

/// The victim's signatures, public once the victim has sent them anywhere (the dictionary's "signatures of other calls").
struct VictimSignatures {
    /// EIP-2612 permit of tokenP for the proxy (what callDiamondWithEIP2612Signature takes).
    uint256 permitValue;
    uint256 permitDeadline;
    uint8 v;
    bytes32 r;
    bytes32 s;
    /// Permit2 PermitTransferFrom for the proxy, without witness (callDiamondWithPermit2: only its signer may send it).
    IPermit2.PermitTransferFrom permit2;
    bytes permit2Signature;
    /// Permit2 PermitWitnessTransferFrom binding the router and the hash of witnessCalldata (anyone may relay it).
    IPermit2.PermitTransferFrom witnessPermit;
    bytes witnessSignature;
    /// swapAndCall of witnessPermit's amount of tokenP back to the victim: the victim's balance ends where it was.
    bytes witnessCalldata;
}

/// Typed-data signatures with forge's vm.sign.
library Sign {
    Vm private constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    bytes32 internal constant TOKEN_PERMISSIONS_TYPEHASH = keccak256("TokenPermissions(address token,uint256 amount)");
    bytes32 internal constant PERMIT_TRANSFER_FROM_TYPEHASH =
        keccak256("PermitTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline)TokenPermissions(address token,uint256 amount)");
    string internal constant WITNESS_STUB = "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,";

    function permit2(uint256 key, address permit2_, IPermit2.PermitTransferFrom memory p, address spender) internal returns (bytes memory) {
        bytes32 permitted = keccak256(abi.encode(TOKEN_PERMISSIONS_TYPEHASH, p.permitted.token, p.permitted.amount));
        bytes32 structHash = keccak256(abi.encode(PERMIT_TRANSFER_FROM_TYPEHASH, permitted, spender, p.nonce, p.deadline));
        return _sign(key, IPermit2More(permit2_).DOMAIN_SEPARATOR(), structHash);
    }

    function permit2Witness(uint256 key, address permit2_, IPermit2.PermitTransferFrom memory p, address spender, bytes32 witness, string memory witnessTypeString)
        internal
        returns (bytes memory)
    {
        bytes32 typeHash = keccak256(abi.encodePacked(WITNESS_STUB, witnessTypeString));
        bytes32 permitted = keccak256(abi.encode(TOKEN_PERMISSIONS_TYPEHASH, p.permitted.token, p.permitted.amount));
        bytes32 structHash = keccak256(abi.encode(typeHash, permitted, spender, p.nonce, p.deadline, witness));
        return _sign(key, IPermit2More(permit2_).DOMAIN_SEPARATOR(), structHash);
    }

    /// The Permit2Proxy witness of `diamondCalldata`.
    function lifiWitness(Permit2Proxy proxy, bytes memory diamondCalldata) internal view returns (bytes32) {
        return keccak256(abi.encode(proxy.WITNESS_TYPEHASH(), proxy.LIFI_DIAMOND(), keccak256(diamondCalldata)));
    }

    function eip2612(uint256 key, address token, address owner, address spender, uint256 value, uint256 deadline)
        internal
        returns (uint8 v, bytes32 r, bytes32 s)
    {
        TestPermitToken t = TestPermitToken(token);
        bytes32 structHash = keccak256(abi.encode(t.PERMIT_TYPEHASH(), owner, spender, value, t.nonces(owner), deadline));
        return vm.sign(key, keccak256(abi.encodePacked("\x19\x01", t.DOMAIN_SEPARATOR(), structHash)));
    }

    function _sign(uint256 key, bytes32 domain, bytes32 structHash) private returns (bytes memory) {
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(key, keccak256(abi.encodePacked("\x19\x01", domain, structHash)));
        return abi.encodePacked(r, s, v);
    }
}

/// The fuzzer's randomness: a handler function takes one uint256 seed and draws bytes from it (then from its hashes).
struct Rng {
    uint256 seed;
    uint256 pool;
    uint256 left;
    uint256 counter;
    /// Building a contract call: an exchange's output goes to an account (a payee), not to the router's contracts
    /// (a swap's output goes to the executor or the router, which is how swaps return it).
    bool inCall;
}

/// What a built router call needs from its sender: native coin, and the ERC-20 it deposits first (for the proxy's
/// signatures and the completion calls' allowance).
struct Needs {
    uint256 value;
    address payAsset;
    uint256 payAmount;
}

/// The dictionary and the argument builders: every argument of every call is drawn from the deployed contracts and
/// accounts, a few amounts (fixed, and the victim's / router's / endpoint's balances, and the maximum), call data
/// that moves or approves tokens, the victim's signatures and the router's own entry points. Most SwapData, CallData
/// and BridgeData start well-formed (a swap the allowlist accepts, a bridge route the endpoint has) and then get 0-3
/// fields replaced by dictionary entries, so that both the working paths and their malformed neighbours are explored.
abstract contract Dictionary {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    address internal constant NATIVE = address(0);
    uint256 internal constant DEST_CHAIN = 10;

    World internal w;
    VictimSignatures internal sig;
    /// Every address a target, spender, owner or asset field may name (16).
    address[] internal addrs;
    /// Who may be paid (receiver, fallbackReceiver...): accounts, not the service's contracts. Paying the router,
    /// executor or proxy directly is a donation, which the token and native-coin actions make explicitly.
    address[] internal payees;
    address[] internal assets; // tokenA, tokenB, tokenP, weth, native
    address[] internal tokens; // the ERC-20s
    string[] internal bridgeKeys;
    string[] internal bridgeNames;
    /// Permit2 nonces the attacker signs with (never reused on purpose).
    uint256 internal attackerNonce = 1_000;
    uint256 internal releaseNonce;

    function _initDictionary(World memory world, VictimSignatures memory signatures) internal {
        w = world;
        sig = signatures;
        address[16] memory a = [
            world.tokenA, world.tokenB, world.tokenP, world.weth, world.router, world.executor, world.endpoint, world.proxy,
            world.feeCollector, world.v2Router, world.pairAB, world.victim, world.attacker, world.permit2, world.admin, NATIVE
        ];
        for (uint256 k = 0; k < a.length; k++) addrs.push(a[k]);
        address[12] memory p = [
            world.attacker, world.attacker, world.attacker, world.attacker, world.attacker, world.victim, world.victim, world.admin,
            world.pairAB, world.relayer, world.v2Router, NATIVE
        ];
        for (uint256 k = 0; k < p.length; k++) payees.push(p[k]);
        assets.push(world.tokenA);
        assets.push(world.tokenB);
        assets.push(world.tokenP);
        assets.push(world.weth);
        assets.push(NATIVE);
        for (uint256 k = 0; k < 4; k++) tokens.push(assets[k]);
        bridgeKeys.push("across");
        bridgeKeys.push("stargate");
        bridgeKeys.push("relay");
        bridgeKeys.push("cctp");
        bridgeNames.push("Across");
        bridgeNames.push("Stargate");
        bridgeNames.push("Relay");
        bridgeNames.push("CCTP");
    }

    // ------------------------------------------------------------------------------------------ randomness

    /// The seed is hashed first: forge often passes values from its dictionary (small numbers, addresses), whose
    /// bytes are mostly zeros and would pick the same entries every time.
    function _rng(uint256 seed) internal pure returns (Rng memory r) {
        r.seed = seed;
        r.pool = uint256(keccak256(abi.encode(seed)));
        r.left = 32;
    }

    function _u8(Rng memory r) internal pure returns (uint256 v) {
        if (r.left == 0) {
            r.counter += 1;
            r.pool = uint256(keccak256(abi.encode(r.seed, r.counter)));
            r.left = 32;
        }
        v = r.pool & 0xff;
        r.pool >>= 8;
        r.left -= 1;
    }

    /// True with probability n/256.
    function _chance(Rng memory r, uint256 n) internal pure returns (bool) {
        return _u8(r) < n;
    }

    // ------------------------------------------------------------------------------------------ picks

    function _bal(address asset, address account) internal view returns (uint256) {
        return asset == NATIVE ? account.balance : IERC20(asset).balanceOf(account);
    }

    function _addr(Rng memory r) internal view returns (address) {
        return addrs[_u8(r) % addrs.length];
    }

    function _payee(Rng memory r) internal view returns (address) {
        return payees[_u8(r) % payees.length];
    }

    function _asset(Rng memory r) internal view returns (address) {
        return assets[_u8(r) % assets.length];
    }

    function _token(Rng memory r) internal view returns (address) {
        return tokens[_u8(r) % tokens.length];
    }

    /// An ordinary amount.
    function _moderate(Rng memory r) internal pure returns (uint256) {
        uint256 k = _u8(r) % 6;
        return k == 0 ? 1_000 : k == 1 ? 1e6 : k == 2 ? 1e9 : k == 3 ? 1e12 : k == 4 ? 1e15 : 1e18;
    }

    /// The dictionary's amounts: 0, 1, ordinary ones, the victim's, the router's and the endpoint's balance of `asset`,
    /// the maximum.
    function _amount(Rng memory r, address asset) internal view returns (uint256) {
        uint256 k = _u8(r) % 12;
        if (k == 0) return 0;
        if (k == 1) return 1;
        if (k <= 5) return _moderate(r);
        if (k == 6) return asset == NATIVE || asset.code.length > 0 ? _bal(asset, w.victim) : 0;
        if (k == 7) return asset == NATIVE || asset.code.length > 0 ? _bal(asset, w.router) : 0;
        if (k == 8) return asset == NATIVE || asset.code.length > 0 ? _bal(asset, w.endpoint) : 0;
        if (k == 9) return asset == NATIVE || asset.code.length > 0 ? _bal(asset, w.executor) : 0;
        if (k == 10) return type(uint128).max;
        return type(uint256).max;
    }

    /// msg.value beside what a call needs.
    function _value(Rng memory r) internal pure returns (uint256) {
        uint256 k = _u8(r) % 6;
        return k <= 2 ? 0 : k == 3 ? 1 : k == 4 ? 1e15 : 1e18;
    }

    /// The value to send for `needed`: mostly exactly that, sometimes more, less or none.
    function _valueFor(Rng memory r, uint256 needed) internal pure returns (uint256) {
        uint256 k = _u8(r) % 16;
        if (k <= 11) return needed;
        if (k == 12) return needed + 1e15;
        if (k == 13) return needed / 2;
        if (k == 14) return 0;
        return _value(r);
    }

    /// A pair's tokens in a swap direction: A/B, B/P, A/WETH both ways.
    function _pairTokens(Rng memory r) internal view returns (address from, address to) {
        uint256 k = _u8(r) % 6;
        if (k == 0) return (w.tokenA, w.tokenB);
        if (k == 1) return (w.tokenB, w.tokenA);
        if (k == 2) return (w.tokenB, w.tokenP);
        if (k == 3) return (w.tokenP, w.tokenB);
        if (k == 4) return (w.tokenA, w.weth);
        return (w.weth, w.tokenA);
    }

    /// A token that has a pair with `asset` (any token when none).
    function _other(Rng memory r, address asset) internal view returns (address) {
        uint256 k = _u8(r);
        if (asset == w.tokenA) return k % 2 == 0 ? w.tokenB : w.weth;
        if (asset == w.tokenB) return k % 2 == 0 ? w.tokenA : w.tokenP;
        if (asset == w.tokenP) return w.tokenB;
        if (asset == w.weth) return w.tokenA;
        return tokens[k % tokens.length];
    }

    /// The recipient of an exchange's output inside a swap: the executor or the router (what the service's swaps
    /// name), or an account.
    function _swapTo(Rng memory r) internal view returns (address) {
        if (r.inCall) return _payee(r);
        uint256 k = _u8(r) % 6;
        return k <= 2 ? w.executor : k == 3 ? w.router : k == 4 ? w.attacker : w.victim;
    }

    /// What the V2 exchange pays for `amount` of `from` (0 when it cannot).
    function _quoteV2(address from, address to, uint256 amount) internal view returns (uint256) {
        address[] memory path = new address[](2);
        path[0] = from;
        path[1] = to;
        try V2Router(w.v2Router).getAmountsOut(amount, path) returns (uint256[] memory out) {
            return out[1];
        } catch {
            return 0;
        }
    }

    // ------------------------------------------------------------------------------------------ call data

    function _v2Call(address from, address to, uint256 amount, address recipient) internal view returns (bytes memory) {
        address[] memory path = new address[](2);
        path[0] = from;
        path[1] = to;
        return abi.encodeCall(V2Router.swapExactTokensForTokens, (amount, 0, path, recipient, block.timestamp + 1_000));
    }

    function _victimPermitCall() internal view returns (bytes memory) {
        return abi.encodeCall(TestPermitToken.permit, (w.victim, w.proxy, sig.permitValue, sig.permitDeadline, sig.v, sig.r, sig.s));
    }

    /// The dictionary's call data, for `asset` and `amount` where it names them; depth 0 may nest router calls.
    function _data(Rng memory r, address asset, uint256 amount, uint256 depth) internal view returns (bytes memory) {
        uint256 k = _u8(r) % 22;
        if (k == 0) return "";
        if (k == 1) return abi.encodeCall(IERC20.transferFrom, (w.victim, w.attacker, amount));
        if (k == 2) return abi.encodeCall(IERC20.transferFrom, (w.router, w.attacker, amount));
        if (k == 3) return abi.encodeCall(IERC20.transferFrom, (w.endpoint, w.attacker, amount));
        if (k == 4) return abi.encodeCall(IERC20.transfer, (w.attacker, amount));
        if (k == 5) return abi.encodeCall(IERC20.approve, (w.attacker, type(uint256).max));
        if (k == 6) return _victimPermitCall();
        if (k == 7) return _v2Call(asset, _other(r, asset), amount, _swapTo(r));
        if (k == 8) return abi.encodeCall(CallExecutor.execute, (_plainCall(r, asset, amount)));
        if (k == 9) {
            return abi.encodeCall(
                IPermit2.permitTransferFrom, (sig.permit2, IPermit2.SignatureTransferDetails(w.attacker, amount), w.victim, sig.permit2Signature)
            );
        }
        if (k == 10) return abi.encodeCall(IPermit2More.transferFrom, (w.victim, w.attacker, uint160(amount), asset));
        if (k == 11 && depth == 0) return _bridgeCall(r, 1, false, Needs(0, NATIVE, 0));
        if (k == 12 && depth == 0) return _bridgeCall(r, 1, true, Needs(0, NATIVE, 0));
        if (k == 13) return abi.encodeCall(BridgeEndpoint.deposit, (_depositRequest(r, asset, amount)));
        if (k == 14) return abi.encodeCall(FeeCollector.collectTokenFees, (asset, amount, 0, w.attacker));
        if (k == 15) return _chance(r, 128) ? abi.encodeCall(IWETH.deposit, ()) : abi.encodeCall(IWETH.withdraw, (amount));
        if (k == 16 && depth == 0) return _completeCall(r, 1, asset, Needs(0, NATIVE, 0));
        if (k == 17) {
            return abi.encodeCall(
                Permit2Proxy.callDiamondWithEIP2612Signature,
                (w.tokenP, sig.permitValue, sig.permitDeadline, sig.v, sig.r, sig.s, sig.witnessCalldata)
            );
        }
        if (k == 18) return sig.witnessCalldata;
        if (k == 19) return abi.encodeCall(FeeCollector.withdrawIntegratorFees, (asset));
        if (k == 20) return abi.encodeCall(IPermit2More.approve, (asset, w.attacker, type(uint160).max, type(uint48).max));
        return abi.encodeCall(FeeCollector.collectNativeFees, (amount, 0, w.attacker));
    }

    // ------------------------------------------------------------------------------------------ SwapData

    function _swaps(Rng memory r, uint256 depth, uint256 count, bool deposits, Needs memory n) internal view returns (SwapData[] memory s) {
        s = new SwapData[](count);
        for (uint256 k = 0; k < count; k++) {
            if (k > 0 && _chance(r, 200)) s[k] = _nextHop(r, s[k - 1]);
            else s[k] = _swapData(r, depth, deposits);
            _mutateSwap(r, s[k], depth);
            if (s[k].requiresDeposit) _need(n, s[k].sendingAssetId, s[k].fromAmount);
        }
    }

    function _need(Needs memory n, address asset, uint256 amount) internal pure {
        if (asset == NATIVE) {
            unchecked {
                n.value = n.value + amount < n.value ? type(uint256).max : n.value + amount;
            }
        } else if (n.payAsset == NATIVE) {
            n.payAsset = asset;
            n.payAmount = amount;
        }
    }

    function _swapData(Rng memory r, uint256 depth, bool deposits) internal view returns (SwapData memory s) {
        uint256 mode = _u8(r) % 10;
        if (mode <= 3) s = _v2Swap(r);
        else if (mode == 4) s = _wethSwap(r);
        else if (mode == 5) s = _feeSwap(r);
        else if (mode == 6 && depth == 0) s = _nestedLeg(r);
        else if (mode <= 8) s = _hostileSwap(r, depth);
        else s = _randomSwap(r, depth);
        s.requiresDeposit = deposits && _chance(r, 220);
    }

    function _v2Swap(Rng memory r) internal view returns (SwapData memory s) {
        (address from, address to) = _pairTokens(r);
        s.callTo = w.v2Router;
        s.approveTo = w.v2Router;
        s.sendingAssetId = from;
        s.receivingAssetId = to;
        s.fromAmount = _moderate(r);
        s.callData = _v2Call(from, to, s.fromAmount, _swapTo(r));
    }

    function _wethSwap(Rng memory r) internal view returns (SwapData memory s) {
        s.callTo = w.weth;
        s.approveTo = w.weth;
        s.fromAmount = _moderate(r);
        if (_chance(r, 128)) {
            s.sendingAssetId = NATIVE;
            s.receivingAssetId = w.weth;
            s.callData = abi.encodeCall(IWETH.deposit, ());
        } else {
            s.sendingAssetId = w.weth;
            s.receivingAssetId = NATIVE;
            s.callData = abi.encodeCall(IWETH.withdraw, (s.fromAmount));
        }
    }

    function _feeSwap(Rng memory r) internal view returns (SwapData memory s) {
        s.callTo = w.feeCollector;
        s.approveTo = w.feeCollector;
        s.sendingAssetId = _asset(r);
        s.receivingAssetId = s.sendingAssetId;
        s.fromAmount = _moderate(r);
        uint256 integratorFee = s.fromAmount / 2;
        s.callData = s.sendingAssetId == NATIVE
            ? abi.encodeCall(FeeCollector.collectNativeFees, (integratorFee, s.fromAmount - integratorFee, _addr(r)))
            : abi.encodeCall(FeeCollector.collectTokenFees, (s.sendingAssetId, integratorFee, s.fromAmount - integratorFee, _addr(r)));
    }

    /// A SwapData calling the router itself: the nested bridge leg (the gas refuel) with its amount as its funds.
    function _nestedLeg(Rng memory r) internal view returns (SwapData memory s) {
        s.callTo = w.router;
        s.approveTo = w.router;
        s.sendingAssetId = _bridgeAsset(r);
        s.receivingAssetId = s.sendingAssetId;
        s.fromAmount = _moderate(r);
        Needs memory inner = Needs(0, NATIVE, 0);
        s.callData = _bridgeCallFor(r, 1, _chance(r, 40), s.sendingAssetId, s.fromAmount, inner);
    }

    /// Hostile call data sent where it means something: a token's transfer / transferFrom / approve / permit to the
    /// token, Permit2's transfers to Permit2, execute to the executor, deposit to the endpoint...; approveTo the
    /// target, or the attacker.
    function _hostileSwap(Rng memory r, uint256 depth) internal view returns (SwapData memory s) {
        s.sendingAssetId = _asset(r);
        s.receivingAssetId = _chance(r, 128) ? s.sendingAssetId : _asset(r);
        s.fromAmount = _chance(r, 160) ? _moderate(r) : _amount(r, s.sendingAssetId);
        uint256 k = _u8(r) % 12;
        address token = s.sendingAssetId == NATIVE ? _token(r) : s.sendingAssetId;
        uint256 amount = _amount(r, token);
        if (k == 0) {
            (s.callTo, s.callData) = (token, abi.encodeCall(IERC20.transferFrom, (w.victim, w.attacker, amount)));
        } else if (k == 1) {
            (s.callTo, s.callData) = (token, abi.encodeCall(IERC20.transferFrom, (_chance(r, 128) ? w.router : w.endpoint, w.attacker, amount)));
        } else if (k == 2) {
            (s.callTo, s.callData) = (token, abi.encodeCall(IERC20.transfer, (w.attacker, amount)));
        } else if (k == 3) {
            (s.callTo, s.callData) = (token, abi.encodeCall(IERC20.approve, (w.attacker, type(uint256).max)));
        } else if (k == 4) {
            (s.callTo, s.callData) = (w.tokenP, _victimPermitCall());
        } else if (k == 5) {
            s.callTo = w.permit2;
            s.callData = abi.encodeCall(
                IPermit2.permitTransferFrom, (sig.permit2, IPermit2.SignatureTransferDetails(w.attacker, sig.permit2.permitted.amount), w.victim, sig.permit2Signature)
            );
        } else if (k == 6) {
            (s.callTo, s.callData) = (w.permit2, abi.encodeCall(IPermit2More.transferFrom, (w.victim, w.attacker, uint160(amount), token)));
        } else if (k == 7) {
            (s.callTo, s.callData) = (w.permit2, abi.encodeCall(IPermit2More.approve, (token, w.attacker, type(uint160).max, type(uint48).max)));
        } else if (k == 8) {
            (s.callTo, s.callData) = (w.executor, abi.encodeCall(CallExecutor.execute, (_plainCall(r, token, amount))));
        } else if (k == 9) {
            (s.callTo, s.callData) = (w.endpoint, abi.encodeCall(BridgeEndpoint.deposit, (_depositRequest(r, s.sendingAssetId, s.fromAmount))));
        } else if (k == 10) {
            (s.callTo, s.callData) = (w.proxy, sig.witnessCalldata);
        } else {
            (s.callTo, s.callData) = (w.v2Router, _v2Call(token, _other(r, token), amount, w.attacker));
        }
        s.approveTo = _chance(r, 160) ? s.callTo : _chance(r, 128) ? w.attacker : _addr(r);
        if (depth > 0 && _chance(r, 64)) s.callTo = _addr(r);
    }

    function _randomSwap(Rng memory r, uint256 depth) internal view returns (SwapData memory s) {
        s.callTo = _addr(r);
        s.approveTo = _chance(r, 128) ? s.callTo : _addr(r);
        s.sendingAssetId = _asset(r);
        s.receivingAssetId = _asset(r);
        s.fromAmount = _amount(r, s.sendingAssetId);
        s.callData = _data(r, s.sendingAssetId, s.fromAmount, depth + 1);
    }

    /// The next hop of a multi-swap: spends (about) what the previous one produced.
    function _nextHop(Rng memory r, SwapData memory prev) internal view returns (SwapData memory s) {
        address from = prev.receivingAssetId;
        uint256 amount = prev.callTo == w.v2Router ? _quoteV2(prev.sendingAssetId, from, prev.fromAmount) : prev.fromAmount;
        if (from == NATIVE || (from == w.weth && _chance(r, 60))) {
            s.callTo = w.weth;
            s.approveTo = w.weth;
            s.sendingAssetId = from;
            s.receivingAssetId = from == NATIVE ? w.weth : NATIVE;
            s.fromAmount = amount;
            s.callData = from == NATIVE ? abi.encodeCall(IWETH.deposit, ()) : abi.encodeCall(IWETH.withdraw, (amount));
        } else {
            address to = _other(r, from);
            s.callTo = w.v2Router;
            s.approveTo = w.v2Router;
            s.sendingAssetId = from;
            s.receivingAssetId = to;
            s.fromAmount = amount;
            s.callData = _v2Call(from, to, amount, _swapTo(r));
        }
        if (_chance(r, 30)) s.fromAmount = _amount(r, from); // more or less than produced
    }

    function _mutations(Rng memory r) internal pure returns (uint256) {
        uint256 k = _u8(r);
        return k < 140 ? 0 : k < 215 ? 1 : k < 243 ? 2 : 3;
    }

    function _mutateSwap(Rng memory r, SwapData memory s, uint256 depth) internal view {
        uint256 count = _mutations(r);
        for (uint256 m = 0; m < count; m++) {
            uint256 field = _u8(r) % 7;
            if (field == 0) s.callTo = _addr(r);
            else if (field == 1) s.approveTo = _addr(r);
            else if (field == 2) s.sendingAssetId = _asset(r);
            else if (field == 3) s.receivingAssetId = _asset(r);
            else if (field == 4) s.fromAmount = _amount(r, s.sendingAssetId);
            else if (field == 5) s.callData = _data(r, s.sendingAssetId, s.fromAmount, depth + 1);
            else s.requiresDeposit = !s.requiresDeposit;
        }
    }

    // ------------------------------------------------------------------------------------------ CallData

    /// A CallData without nested router calls (the executor's `execute` inside call data).
    function _plainCall(Rng memory r, address asset, uint256 amount) internal view returns (CallData memory c) {
        c.target = _addr(r);
        c.approveTo = _chance(r, 128) ? c.target : _addr(r);
        c.sendingAssetId = asset;
        c.amount = amount;
        c.callData = _u8(r) % 2 == 0 ? abi.encodeCall(IERC20.transferFrom, (w.victim, w.attacker, amount)) : abi.encodeCall(IERC20.transfer, (w.attacker, amount));
        c.gasLimit = 300_000;
        c.fallbackReceiver = _payee(r);
    }

    function _calls(Rng memory r, uint256 count, address asset, uint256 budget, uint256 depth) internal view returns (CallData[] memory c) {
        c = new CallData[](count);
        for (uint256 k = 0; k < count; k++) {
            c[k] = _callData(r, asset, budget / count, depth);
        }
    }

    function _callData(Rng memory r, address asset, uint256 amount, uint256 depth) internal view returns (CallData memory c) {
        bool outer = r.inCall;
        r.inCall = true;
        c = _callDataIn(r, asset, amount, depth);
        _mutateCall(r, c, depth);
        r.inCall = outer;
    }

    function _callDataIn(Rng memory r, address asset, uint256 amount, uint256 depth) private view returns (CallData memory c) {
        c.sendingAssetId = asset;
        c.amount = amount;
        uint256 g = _u8(r) % 4;
        c.gasLimit = g == 0 ? 0 : g == 1 ? 100_000 : g == 2 ? 500_000 : 2_000_000;
        c.fallbackReceiver = _payee(r);
        uint256 mode = _u8(r) % 8;
        if (mode == 7) {
            c.target = _addr(r);
            c.approveTo = _chance(r, 128) ? c.target : _addr(r);
            c.callData = _data(r, asset, amount, depth + 1);
        } else if ((mode == 3 || mode == 4) && asset != NATIVE) {
            c.target = w.v2Router;
            c.approveTo = w.v2Router;
            c.callData = _v2Call(asset, _other(r, asset), amount, _payee(r));
        } else if (mode == 5 && (asset == NATIVE || asset == w.weth)) {
            c.target = w.weth;
            c.approveTo = w.weth;
            c.callData = asset == NATIVE ? abi.encodeCall(IWETH.deposit, ()) : abi.encodeCall(IWETH.withdraw, (amount));
        } else if (mode == 6 && asset == NATIVE) {
            // the native coin to an account, a call without data
            c.target = _payee(r);
            c.approveTo = c.target;
        } else {
            c.target = w.feeCollector;
            c.approveTo = w.feeCollector;
            uint256 half = amount / 2;
            c.callData = asset == NATIVE
                ? abi.encodeCall(FeeCollector.collectNativeFees, (half, amount - half, _addr(r)))
                : abi.encodeCall(FeeCollector.collectTokenFees, (asset, half, amount - half, _addr(r)));
        }
    }

    function _mutateCall(Rng memory r, CallData memory c, uint256 depth) internal view {
        uint256 count = _mutations(r);
        for (uint256 m = 0; m < count; m++) {
            uint256 field = _u8(r) % 7;
            if (field == 0) c.target = _addr(r);
            else if (field == 1) c.approveTo = _addr(r);
            else if (field == 2) c.sendingAssetId = _asset(r);
            else if (field == 3) c.amount = _amount(r, c.sendingAssetId);
            else if (field == 4) c.callData = _data(r, c.sendingAssetId, c.amount, depth + 1);
            else if (field == 5) c.gasLimit = _chance(r, 128) ? type(uint256).max : 30_000;
            else c.fallbackReceiver = _addr(r);
        }
    }

    // ------------------------------------------------------------------------------------------ bridges

    /// An asset the endpoint has a route for (tokenB has none).
    function _bridgeAsset(Rng memory r) internal view returns (address) {
        uint256 k = _u8(r) % 9;
        return k <= 2 ? w.tokenA : k <= 4 ? w.tokenP : k <= 6 ? NATIVE : k == 7 ? w.weth : w.tokenB;
    }

    /// The native messaging fee of a source route (setUp: stargate's is 1e15, the others' 0).
    function _routeFee(string memory key) internal pure returns (uint256) {
        return keccak256(bytes(key)) == keccak256("stargate") ? 1e15 : 0;
    }

    function _depositRequest(Rng memory r, address asset, uint256 amount) internal view returns (DepositRequest memory q) {
        q.bridge = bridgeKeys[_u8(r) % 2];
        q.transactionId = bytes32(_u8(r));
        q.token = asset;
        q.amount = amount;
        q.destinationChainId = _chance(r, 230) ? DEST_CHAIN : block.chainid;
        q.receiverOnDestination = _payee(r);
        q.receiver = _payee(r);
        q.refundTo = _chance(r, 200) ? _payee(r) : _addr(r);
        if (_chance(r, 30)) q.destinationCallData = _completeCall(r, 1, asset, Needs(0, NATIVE, 0));
    }

    /// A startBridgeTokensVia<B> / swapAndStartBridgeTokensVia<B> call (the router's fallback).
    function _bridgeCall(Rng memory r, uint256 depth, bool withSwaps, Needs memory n) internal view returns (bytes memory) {
        return _bridgeCallFor(r, depth, withSwaps, _bridgeAsset(r), _moderate(r), n);
    }

    function _bridgeCallFor(Rng memory r, uint256 depth, bool withSwaps, address asset, uint256 amount, Needs memory n)
        internal
        view
        returns (bytes memory)
    {
        uint256 facet = _u8(r) % bridgeKeys.length;
        BridgeData memory b;
        b.transactionId = bytes32(uint256(0xb1) << 248 | _u8(r));
        b.bridge = _chance(r, 240) ? bridgeKeys[facet] : bridgeKeys[_u8(r) % bridgeKeys.length];
        b.sendingAssetId = asset;
        b.receiver = _payee(r);
        b.minAmount = amount;
        b.destinationChainId = _chance(r, 240) ? DEST_CHAIN : block.chainid;
        b.hasDestinationCall = _chance(r, 50);
        BridgeSpecificData memory d;
        d.receiverOnDestination = b.hasDestinationCall && _chance(r, 200) ? w.router : _payee(r);
        if (b.hasDestinationCall != _chance(r, 8)) d.destinationCallData = _completeCall(r, depth + 1, asset, Needs(0, NATIVE, 0));
        uint256 fee = _routeFee(b.bridge);
        if (!withSwaps) {
            if (_chance(r, 20)) b.minAmount = _amount(r, asset);
            _need(n, asset, b.minAmount);
            n.value += fee;
            return abi.encodePacked(_facetSelector(facet, false), abi.encode(b, d));
        }
        SwapData[] memory s;
        b.hasSourceSwaps = _chance(r, 170);
        if (b.hasSourceSwaps) {
            // swaps that produce the bridged asset
            s = new SwapData[](1);
            s[0] = _swapInto(r, asset, amount);
            s[0].requiresDeposit = _chance(r, 230);
            _mutateSwap(r, s[0], depth);
            if (s[0].requiresDeposit) _need(n, s[0].sendingAssetId, s[0].fromAmount);
            uint256 out = s[0].callTo == w.v2Router ? _quoteV2(s[0].sendingAssetId, asset, s[0].fromAmount) : s[0].fromAmount;
            b.minAmount = _chance(r, 220) ? out : _amount(r, asset);
        } else {
            s = _swaps(r, depth, 1, true, n);
            _need(n, asset, b.minAmount);
        }
        n.value += fee;
        return abi.encodePacked(_facetSelector(facet, true), abi.encode(b, s, d));
    }

    /// A swap whose output is `asset`, for about `amount` of input.
    function _swapInto(Rng memory r, address asset, uint256 amount) internal view returns (SwapData memory s) {
        address from;
        if (asset == NATIVE) {
            s.callTo = w.weth;
            s.approveTo = w.weth;
            s.sendingAssetId = w.weth;
            s.receivingAssetId = NATIVE;
            s.fromAmount = amount;
            s.callData = abi.encodeCall(IWETH.withdraw, (amount));
            return s;
        }
        from = asset == w.tokenP ? w.tokenB : _other(r, asset);
        s.callTo = w.v2Router;
        s.approveTo = w.v2Router;
        s.sendingAssetId = from;
        s.receivingAssetId = asset;
        s.fromAmount = amount;
        s.callData = _v2Call(from, asset, amount, _swapTo(r));
    }

    function _facetSelector(uint256 facet, bool withSwaps) internal view returns (bytes4) {
        string memory name = bridgeNames[facet];
        string memory bridgeData = "(bytes32,string,string,address,address,address,uint256,uint256,bool,bool)";
        string memory specific = "(address,bytes,uint256,bytes)";
        string memory signature = withSwaps
            ? string.concat("swapAndStartBridgeTokensVia", name, "(", bridgeData, ",(address,address,address,address,uint256,bytes,bool)[],", specific, ")")
            : string.concat("startBridgeTokensVia", name, "(", bridgeData, ",", specific, ")");
        return bytes4(keccak256(bytes(signature))); // Router._facet's selectors
    }

    // ------------------------------------------------------------------------------------------ router calls

    /// One of the router's entry points with dictionary arguments (the proxy's diamondCalldata, a destination call,
    /// a nested leg); `n` gets what its sender must provide.
    function _routerCall(Rng memory r, uint256 depth, Needs memory n) internal view returns (bytes memory) {
        uint256 kind = _u8(r) % 6;
        if (kind == 0) return _genericCall(r, depth, n);
        if (kind == 1) return _swapAndCallCall(r, depth, n);
        if (kind == 2 || kind == 3) return _completeCall(r, depth, _bridgeAsset(r), n);
        return _bridgeCall(r, depth, kind == 5, n);
    }

    function _genericCall(Rng memory r, uint256 depth, Needs memory n) internal view returns (bytes memory) {
        SwapData[] memory s = _swaps(r, depth, 1 + (_u8(r) % 3 == 0 ? 1 : 0), true, n);
        address toAsset = s[s.length - 1].receivingAssetId;
        uint256 minOut = _chance(r, 220) ? 0 : _amount(r, toAsset);
        return abi.encodeCall(Router.swapTokensGeneric, (bytes32(uint256(0x51) << 248 | _u8(r)), "fuzz", "", _payee(r), minOut, s));
    }

    function _swapAndCallCall(Rng memory r, uint256 depth, Needs memory n) internal view returns (bytes memory) {
        SwapData[] memory s = _swaps(r, depth, _u8(r) % 3 == 0 ? 0 : 1, false, n);
        address sending = s.length > 0 ? s[0].sendingAssetId : _asset(r);
        uint256 fromAmount = s.length > 0 ? s[0].fromAmount : _moderate(r);
        if (_chance(r, 20)) fromAmount = _amount(r, sending);
        address toAsset = s.length > 0 ? s[s.length - 1].receivingAssetId : sending;
        uint256 produced = s.length > 0 && s[0].callTo == w.v2Router ? _quoteV2(sending, toAsset, fromAmount) : fromAmount;
        CallData[] memory c = _calls(r, 1 + (_u8(r) % 3 == 0 ? 1 : 0), toAsset, produced / 2, depth);
        _need(n, sending, fromAmount);
        return _encodeSwapAndCall(r, sending, fromAmount, s, c);
    }

    function _encodeSwapAndCall(Rng memory r, address sending, uint256 fromAmount, SwapData[] memory s, CallData[] memory c)
        internal
        view
        returns (bytes memory)
    {
        bytes32 id = bytes32(uint256(0x5c) << 248 | _u8(r));
        address receiver = _payee(r);
        uint256 minOut = _chance(r, 230) ? 0 : _amount(r, sending);
        return abi.encodeCall(Router.swapAndCall, (id, "fuzz", "", receiver, sending, fromAmount, minOut, s, c));
    }

    /// swapAndCompleteBridgeTokens / ...WithCalls for the bridged `asset` (what a destination call holds, or what the
    /// attacker calls directly after approving the router).
    function _completeCall(Rng memory r, uint256 depth, address asset, Needs memory n) internal view returns (bytes memory) {
        uint256 amount = _moderate(r);
        if (asset == NATIVE) n.value += amount;
        else _need(n, asset, amount);
        SwapData[] memory s = new SwapData[](0);
        if (_chance(r, 150)) {
            s = new SwapData[](1);
            if (asset != NATIVE && _chance(r, 200)) {
                address to = _other(r, asset);
                s[0].callTo = w.v2Router;
                s[0].approveTo = w.v2Router;
                s[0].sendingAssetId = asset;
                s[0].receivingAssetId = to;
                s[0].fromAmount = amount / (1 + _u8(r) % 2);
                s[0].callData = _v2Call(asset, to, s[0].fromAmount, _swapTo(r));
            } else {
                s[0] = _swapData(r, depth, false);
            }
            _mutateSwap(r, s[0], depth);
        }
        address toAsset = s.length > 0 ? s[0].receivingAssetId : asset;
        address receiver = _payee(r);
        uint256 minOut = _chance(r, 230) ? 0 : _amount(r, toAsset);
        bytes32 id = bytes32(uint256(0xc0) << 248 | _u8(r));
        if (_chance(r, 128)) return abi.encodeCall(Router.swapAndCompleteBridgeTokens, (id, s, asset, receiver, minOut));
        CallData[] memory c = _calls(r, 1, toAsset, amount / 4, depth);
        return abi.encodeCall(Router.swapAndCompleteBridgeTokensWithCalls, (id, s, asset, receiver, minOut, c));
    }
}
