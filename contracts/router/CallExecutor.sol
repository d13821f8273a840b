// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {LibAsset} from "../libraries/LibAsset.sol";
import {SwapData} from "./Types.sol";

/// One contract call after the swaps (src/core/transactions/abi.ts CALL_DATA).
struct CallData {
    address target;
    address approveTo;
    address sendingAssetId;
    uint256 amount;
    bytes callData;
    uint256 gasLimit;
    address fallbackReceiver;
}

/// Runs the router's swaps and contract calls (swapAndCall, swapAndCompleteBridgeTokensWithCalls) on behalf of the
/// router, from an address that holds no user approvals and nothing between transactions: users approve the router
/// (or Permit2), so a call made by the router itself could spend their allowances. Created by the router (CREATE2,
/// salt 0), callable by it only; the router never lets a swap or a call target the executor or the router.
///
/// `swap`: the router has handed over fromAmount of sendingAssetId (and checked (callTo, selector) against its
/// allowlist). The executor approves approveTo for exactly fromAmount (ERC-20) or sends it as value (native coin),
/// calls callTo with callData (a failure reverts the whole transaction with its reason), resets the approval to 0
/// and sends the router everything it holds of sendingAssetId and receivingAssetId (what the swap left of its input
/// and what it paid to its caller, e.g. the wrapped native coin of a wrap) above what it held before the hand-over
/// (what someone left in the executor is never handed to a later caller).
///
/// `execute`: the router has handed over `amount` of `sendingAssetId` (an ERC-20 transfer just before the call, or
/// the call's value for the native coin). The executor approves approveTo for `amount` (ERC-20) or sends `amount` as
/// value (native coin), calls target with callData and at most gasLimit gas (its return data is not copied), and
/// resets the approval to 0. What it holds of the asset above what it held before the hand-over then goes to
/// fallbackReceiver: all of `amount` when the call reverted or ran out of gas, what the call left of it otherwise.
contract CallExecutor {
    address public immutable router;

    error NotRouter();
    error CallRefused(address target);
    error HandOverShort(address asset, uint256 expected, uint256 held);
    error CallOverspent(address asset, uint256 held, uint256 left);
    error InsufficientGas(uint256 needed, uint256 left);

    constructor() {
        router = msg.sender;
    }

    receive() external payable {}

    function swap(SwapData calldata s) external payable {
        if (msg.sender != router) revert NotRouter();
        bool native = LibAsset.isNative(s.sendingAssetId);
        // what the executor held before the hand-over (nothing, unless someone sent it something): never swept
        uint256 handed = native ? msg.value : s.fromAmount;
        uint256 held = LibAsset.balanceOf(s.sendingAssetId, address(this));
        if (held < handed) revert HandOverShort(s.sendingAssetId, handed, held); // a fee-on-transfer token
        uint256 sendingStart = held - handed;
        uint256 receivingStart = LibAsset.balanceOf(s.receivingAssetId, address(this));
        if (!native) LibAsset.approve(s.sendingAssetId, s.approveTo, s.fromAmount);
        (bool ok, bytes memory ret) = s.callTo.call{value: msg.value}(s.callData);
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
        if (!native) LibAsset.approve(s.sendingAssetId, s.approveTo, 0);
        _sweep(s.sendingAssetId, sendingStart);
        if (s.receivingAssetId != s.sendingAssetId) _sweep(s.receivingAssetId, receivingStart);
    }

    /// Sends the router what the executor holds of `asset` above `start`.
    function _sweep(address asset, uint256 start) private {
        uint256 held = LibAsset.balanceOf(asset, address(this));
        if (held > start) LibAsset.transfer(asset, router, held - start);
    }

    function execute(CallData calldata c) external payable returns (bool success) {
        if (msg.sender != router) revert NotRouter();
        // the router refuses these already (Router._checkCalls); the executor does not rely on it
        address asset = c.sendingAssetId;
        if (c.target == address(this) || c.target == router || LibAsset.refusedCall(c.target, LibAsset.selectorOf(c.callData), asset)) revert CallRefused(c.target);
        bool native = LibAsset.isNative(asset);
        // what the executor held before the hand-over (nothing, unless someone sent it something)
        uint256 start = LibAsset.balanceOf(asset, address(this)) - c.amount;
        uint256 value;
        if (native) value = c.amount;
        else LibAsset.approve(asset, c.approveTo, c.amount);
        // EIP-150 forwards at most 63/64 of what is left: make sure the call really gets its gasLimit
        if (gasleft() < c.gasLimit + c.gasLimit / 63 + 10_000) revert InsufficientGas(c.gasLimit, gasleft());
        address target = c.target;
        uint256 gasLimit = c.gasLimit;
        bytes memory data = c.callData;
        assembly {
            success := call(gasLimit, target, value, add(data, 32), mload(data), 0, 0)
        }
        if (!native) LibAsset.approve(asset, c.approveTo, 0);
        uint256 left = LibAsset.balanceOf(asset, address(this));
        // a call spends at most what it was handed, never what the executor held before
        if (left < start) revert CallOverspent(asset, start, left);
        if (left > start) LibAsset.transfer(asset, c.fallbackReceiver, left - start);
    }
}
