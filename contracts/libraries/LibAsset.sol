// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC20Minimal {
    function balanceOf(address account) external view returns (uint256);
    function allowance(address owner, address spender) external view returns (uint256);
    function approve(address spender, uint256 amount) external returns (bool);
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function decimals() external view returns (uint8);
}

/// Native coin (address 0) and ERC-20 transfers; tolerates tokens that return nothing.
library LibAsset {
    address internal constant NATIVE = address(0);

    error TransferFailed(address token, address to, uint256 amount);
    error ApproveFailed(address token, address spender);

    /// Whether a call with this selector can move or approve tokens of its caller (ERC-20, EIP-2612 and DAI permits,
    /// ERC-721/1155 transfers and approvals, ERC-677, Permit2's transfer functions): never made by the router's swaps
    /// or contract calls, whatever their data says.
    function movesTokens(bytes4 selector) internal pure returns (bool) {
        return selector == IERC20Minimal.transfer.selector || selector == IERC20Minimal.transferFrom.selector
            || selector == IERC20Minimal.approve.selector
            || selector == bytes4(keccak256("permit(address,address,uint256,uint256,uint8,bytes32,bytes32)"))
            || selector == bytes4(keccak256("permit(address,address,uint256,uint256,bool,uint8,bytes32,bytes32)"))
            || selector == bytes4(keccak256("increaseAllowance(address,uint256)"))
            || selector == bytes4(keccak256("decreaseAllowance(address,uint256)"))
            || selector == bytes4(keccak256("setApprovalForAll(address,bool)"))
            || selector == bytes4(keccak256("safeTransferFrom(address,address,uint256)"))
            || selector == bytes4(keccak256("safeTransferFrom(address,address,uint256,bytes)"))
            || selector == bytes4(keccak256("safeTransferFrom(address,address,uint256,uint256,bytes)"))
            || selector == bytes4(keccak256("safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)"))
            || selector == bytes4(keccak256("transferAndCall(address,uint256,bytes)"))
            || selector == bytes4(keccak256("transferFrom(address,address,uint160,address)"))
            || selector == bytes4(keccak256("approve(address,address,uint160,uint48)"))
            || selector == bytes4(keccak256("permitTransferFrom(((address,uint256),uint256,uint256),(address,uint256),address,bytes)"))
            || selector == bytes4(keccak256("permitWitnessTransferFrom(((address,uint256),uint256,uint256),(address,uint256),address,bytes32,string,bytes)"));
    }

    /// Whether a contract call (target, selector) made with `asset` is refused: any token-moving selector, except the
    /// call's own asset's `transfer` (paying someone with what the call was handed; the executor checks that it
    /// spends no more than that).
    function refusedCall(address target, bytes4 selector, address asset) internal pure returns (bool) {
        return movesTokens(selector) && !(selector == IERC20Minimal.transfer.selector && target == asset);
    }

    /// The first four bytes of call data (0 when it is shorter).
    function selectorOf(bytes memory data) internal pure returns (bytes4 selector) {
        if (data.length < 4) return bytes4(0);
        assembly {
            selector := mload(add(data, 32))
        }
    }

    function isNative(address asset) internal pure returns (bool) {
        return asset == NATIVE;
    }

    function balanceOf(address asset, address account) internal view returns (uint256) {
        return asset == NATIVE ? account.balance : IERC20Minimal(asset).balanceOf(account);
    }

    function transfer(address asset, address to, uint256 amount) internal {
        if (amount == 0) return;
        if (asset == NATIVE) {
            (bool ok, ) = payable(to).call{value: amount}("");
            if (!ok) revert TransferFailed(asset, to, amount);
        } else {
            _call(asset, abi.encodeWithSelector(IERC20Minimal.transfer.selector, to, amount), to, amount);
        }
    }

    function transferFrom(address token, address from, address to, uint256 amount) internal {
        if (amount == 0) return;
        _call(token, abi.encodeWithSelector(IERC20Minimal.transferFrom.selector, from, to, amount), to, amount);
    }

    /// Pulls `amount` of `token` from `from` and returns what arrived (a fee-on-transfer token delivers less).
    function pull(address token, address from, uint256 amount) internal returns (uint256 received) {
        uint256 before = IERC20Minimal(token).balanceOf(address(this));
        transferFrom(token, from, address(this), amount);
        received = IERC20Minimal(token).balanceOf(address(this)) - before;
    }

    /// Sets this contract's allowance of `spender` to exactly `amount` (0 resets it).
    function approve(address token, address spender, uint256 amount) internal {
        if (token.code.length == 0) revert ApproveFailed(token, spender);
        (bool ok, bytes memory ret) = token.call(abi.encodeWithSelector(IERC20Minimal.approve.selector, spender, amount));
        if (!ok || (ret.length > 0 && !abi.decode(ret, (bool)))) revert ApproveFailed(token, spender);
    }

    function _call(address token, bytes memory data, address to, uint256 amount) private {
        if (token.code.length == 0) revert TransferFailed(token, to, amount);
        (bool ok, bytes memory ret) = token.call(data);
        if (!ok) {
            if (ret.length > 0) {
                assembly {
                    revert(add(ret, 32), mload(ret))
                }
            }
            revert TransferFailed(token, to, amount);
        }
        if (ret.length > 0 && !abi.decode(ret, (bool))) revert TransferFailed(token, to, amount);
    }
}
