// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TestToken} from "../tokens/TestToken.sol";

/// TestToken burning 1 % of every transfer (transfer and transferFrom): the receiver gets amount − amount / 100.
/// For the attack tests (test/e2e/attacks.test.ts): contracts must credit what arrived, not what was asked for.
/// Deployed by the test (its constructor runs); the deployer is the minter.
contract FeeOnTransferToken is TestToken {
    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        _init(name_, symbol_, decimals_, msg.sender);
    }

    /// The 1 % fee (rounded down) is burned: it leaves the sender and reaches no one.
    function _transfer(address from, address to, uint256 amount) internal override {
        uint256 fee = amount / 100;
        super._transfer(from, to, amount - fee);
        if (fee == 0) return;
        super._transfer(from, address(0), fee);
        balanceOf[address(0)] -= fee;
        totalSupply -= fee;
    }
}
