// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Minimal, LibAsset} from "../libraries/LibAsset.sol";

/// Uniswap's Permit2 (SignatureTransfer), at its canonical address 0x000000000022D473030F116dDEE9F6B43aC78BA3.
interface IPermit2 {
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    function permitTransferFrom(PermitTransferFrom calldata permit, SignatureTransferDetails calldata transferDetails, address owner, bytes calldata signature)
        external;

    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external;

    function nonceBitmap(address owner, uint256 wordPos) external view returns (uint256);
}

interface IERC20Permit {
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external;
}

/// Signature approvals for the router, with the interface the ecosystem SDK calls (its Ethereum provider,
/// utils/abi.ts permit2ProxyAbi): instead of approving the router, a user signs
/// - a Permit2 `PermitTransferFrom` for this proxy (after a one-time approval of Permit2, the standard flow):
///   `callDiamondWithPermit2`, sent by the signer itself;
/// - a Permit2 `PermitWitnessTransferFrom` whose witness `LiFiCall(address diamondAddress, bytes32
///   diamondCalldataHash)` binds the router and the hash of the router call data: `callDiamondWithPermit2Witness`,
///   which anyone (a relayer) may send, since the signature fixes what is done with the funds;
/// - a token's own EIP-2612 `permit` for this proxy: `callDiamondWithEIP2612Signature`, sent by the signer.
///
/// Each pulls exactly the signed amount from the signer into the proxy, approves the router for exactly that amount,
/// calls the router with the given call data (forwarding msg.value), resets the approval to 0 and sends the signer
/// anything the proxy still holds of the token or the native coin. While it calls the router, `onBehalfOf` names
/// the signer: the router sends the signer, not the proxy, what it returns and makes the signer the bridge refund
/// address. Permit2 checks the signature, the deadline and the nonce (each nonce once); the proxy never pulls an
/// ERC-20 allowance from anyone but msg.sender, so a signature is usable only by its signer (or, with the witness,
/// only with its call data), only once and only before its deadline. One reentrancy lock over all entry points.
contract Permit2Proxy {
    IPermit2 public immutable PERMIT2;
    address public immutable LIFI_DIAMOND;

    string public constant WITNESS_TYPE_STRING =
        "LiFiCall witness)LiFiCall(address diamondAddress,bytes32 diamondCalldataHash)TokenPermissions(address token,uint256 amount)";
    bytes32 public constant WITNESS_TYPEHASH = keccak256("LiFiCall(address diamondAddress,bytes32 diamondCalldataHash)");

    error ZeroAddress();
    error Reentrancy();
    error InsufficientAllowance(uint256 allowance, uint256 needed);

    /// Transient slots: the lock, and the user the router is called for.
    bytes32 private constant LOCK_SLOT = keccak256("permit2proxy.lock");
    bytes32 private constant USER_SLOT = keccak256("permit2proxy.user");

    constructor(address router, address permit2) {
        if (router == address(0) || permit2 == address(0)) revert ZeroAddress();
        LIFI_DIAMOND = router;
        PERMIT2 = IPermit2(permit2);
    }

    /// The signer whose funds the router is being called with (0 outside a call).
    function onBehalfOf() external view returns (address user) {
        bytes32 slot = USER_SLOT;
        assembly {
            user := tload(slot)
        }
    }

    function callDiamondWithPermit2(bytes calldata diamondCalldata, IPermit2.PermitTransferFrom calldata permit, bytes calldata signature)
        external
        payable
        returns (bytes memory)
    {
        _lock();
        address token = permit.permitted.token;
        uint256 received = _received(token, permit.permitted.amount, msg.sender, bytes32(0), permit, signature);
        return _callDiamond(msg.sender, token, received, diamondCalldata);
    }

    function callDiamondWithPermit2Witness(
        bytes calldata diamondCalldata,
        address signer,
        IPermit2.PermitTransferFrom calldata permit,
        bytes calldata signature
    ) external payable returns (bytes memory) {
        _lock();
        if (signer == address(0)) revert ZeroAddress();
        bytes32 witness = keccak256(abi.encode(WITNESS_TYPEHASH, LIFI_DIAMOND, keccak256(diamondCalldata)));
        address token = permit.permitted.token;
        uint256 received = _received(token, permit.permitted.amount, signer, witness, permit, signature);
        return _callDiamond(signer, token, received, diamondCalldata);
    }

    function callDiamondWithEIP2612Signature(
        address token,
        uint256 amount,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s,
        bytes calldata diamondCalldata
    ) external payable returns (bytes memory) {
        _lock();
        // the permit may have been submitted already by someone who saw it (it is public once sent): then the
        // allowance it gave is there, and only its signer, msg.sender, can use it here
        try IERC20Permit(token).permit(msg.sender, address(this), amount, deadline, v, r, s) {}
        catch {
            uint256 allowed = IERC20Minimal(token).allowance(msg.sender, address(this));
            if (allowed < amount) revert InsufficientAllowance(allowed, amount);
        }
        uint256 received = LibAsset.pull(token, msg.sender, amount);
        return _callDiamond(msg.sender, token, received, diamondCalldata);
    }

    /// The first nonce Permit2 has not used for `owner` (the SDK signs with it).
    function nextNonce(address owner) external view returns (uint256) {
        for (uint256 word = 0; ; word++) {
            uint256 bitmap = PERMIT2.nonceBitmap(owner, word);
            if (bitmap == type(uint256).max) continue;
            for (uint256 bit = 0; bit < 256; bit++) if (bitmap & (1 << bit) == 0) return (word << 8) | bit;
        }
    }

    /// Pulls the signed amount from `owner` through Permit2 (with the witness when non-zero); returns what arrived.
    function _received(address token, uint256 amount, address owner, bytes32 witness, IPermit2.PermitTransferFrom calldata permit, bytes calldata signature)
        private
        returns (uint256)
    {
        uint256 before = IERC20Minimal(token).balanceOf(address(this));
        IPermit2.SignatureTransferDetails memory details = IPermit2.SignatureTransferDetails({to: address(this), requestedAmount: amount});
        if (witness == bytes32(0)) PERMIT2.permitTransferFrom(permit, details, owner, signature);
        else PERMIT2.permitWitnessTransferFrom(permit, details, owner, witness, WITNESS_TYPE_STRING, signature);
        return IERC20Minimal(token).balanceOf(address(this)) - before;
    }

    function _callDiamond(address user, address token, uint256 amount, bytes calldata diamondCalldata) private returns (bytes memory result) {
        bytes32 userSlot = USER_SLOT;
        assembly {
            tstore(userSlot, user)
        }
        LibAsset.approve(token, LIFI_DIAMOND, amount);
        bool ok;
        (ok, result) = LIFI_DIAMOND.call{value: msg.value}(diamondCalldata);
        if (!ok) {
            // the router's own error, as if it had been called directly (wallets and the status read it)
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
        if (IERC20Minimal(token).allowance(address(this), LIFI_DIAMOND) != 0) LibAsset.approve(token, LIFI_DIAMOND, 0);
        assembly {
            tstore(userSlot, 0)
        }
        // the proxy keeps nothing: what the router left (or anyone sent) goes to the user
        uint256 left = IERC20Minimal(token).balanceOf(address(this));
        if (left > 0) LibAsset.transfer(token, user, left);
        if (address(this).balance > 0) LibAsset.transfer(LibAsset.NATIVE, user, address(this).balance);
        _unlock();
    }

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

    /// The native coin the router returns to its caller on the user's behalf arrives here, then goes to the user.
    receive() external payable {}
}
