// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TestToken} from "../tokens/TestToken.sol";

/// TestToken that, on transfer and transferFrom (before moving the balance), calls a configured target with
/// configured call data, on every one or only on those made by a configured contract (`trigger`, the msg.sender of the
/// transfer: e.g. the endpoint pulling a deposit): a malicious token re-entering the contract that moves it (the router's swapTokensGeneric,
/// the bridge endpoint's deposit or release...). The callback's failure is bubbled up with its revert data, so the
/// outer call fails with the re-entered contract's own error (Reentrancy). One callback at a time (a callback's own
/// transfers do not call back again). For the attack tests (test/e2e/attacks.test.ts). Deployed by the test (its
/// constructor runs); the deployer is the minter and configures the callback.
contract ReentrantToken is TestToken {
    /// The callback: `target` (0: none) called with `callData` and `value` wei of this contract's balance, on the
    /// transfers made by `trigger` (0: every transfer).
    address public target;
    address public trigger;
    bytes public callData;
    uint256 public value;
    /// How many callbacks ran (and succeeded).
    uint256 public callbacks;
    bool private inCallback;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        _init(name_, symbol_, decimals_, msg.sender);
    }

    receive() external payable {}

    function setCallback(address target_, address trigger_, bytes calldata callData_, uint256 value_) external {
        if (msg.sender != minter) revert NotMinter();
        target = target_;
        trigger = trigger_;
        callData = callData_;
        value = value_;
    }

    /// The callback first, then the transfer.
    function _transfer(address from, address to, uint256 amount) internal override {
        _callback();
        super._transfer(from, to, amount);
    }

    function _callback() private {
        if (target == address(0) || inCallback || (trigger != address(0) && msg.sender != trigger)) return;
        inCallback = true;
        (bool ok, bytes memory ret) = target.call{value: value}(callData);
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
        callbacks += 1;
        inCallback = false;
    }
}
