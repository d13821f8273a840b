// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {LibAsset} from "../libraries/LibAsset.sol";

/// A target for the contract-call end-to-end tests, as an integrator would call one ("deposit into a vault"):
/// `deposit` pulls `amount` of an ERC-20 from the caller (transferFrom after its approval) or takes it as value for
/// the native coin (address 0), and credits it to `beneficiary`. Reverts for the zero beneficiary (the tests' failing
/// call). Deployed by the test itself (a constructor runs: no initialisation needed).
contract TestVault {
    /// token → beneficiary → credited amount
    mapping(address => mapping(address => uint256)) public balanceOf;
    /// token → total held
    mapping(address => uint256) public totalDeposits;

    event Deposit(address indexed token, address indexed beneficiary, address indexed from, uint256 amount);

    error InvalidBeneficiary();
    error InvalidAmount();
    error ValueMismatch(uint256 expected, uint256 sent);

    function deposit(address token, uint256 amount, address beneficiary) external payable {
        if (beneficiary == address(0)) revert InvalidBeneficiary();
        if (amount == 0) revert InvalidAmount();
        if (LibAsset.isNative(token)) {
            if (msg.value != amount) revert ValueMismatch(amount, msg.value);
        } else {
            if (msg.value != 0) revert ValueMismatch(0, msg.value);
            LibAsset.transferFrom(token, msg.sender, address(this), amount);
        }
        balanceOf[token][beneficiary] += amount;
        totalDeposits[token] += amount;
        emit Deposit(token, beneficiary, msg.sender, amount);
    }
}
