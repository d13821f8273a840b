// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {LibAsset} from "../libraries/LibAsset.sol";

/// Fee collector in the style of the ecosystem's: the router pays integrator and service fees in, each integrator
/// withdraws its own balance. The native coin is address 0. Service fees are booked under `serviceAccount`.
contract FeeCollector {
    address public admin;
    address public serviceAccount;
    mapping(address => mapping(address => uint256)) private balances; // integrator → token → amount

    event FeesCollected(address indexed token, address indexed integrator, uint256 integratorFee, uint256 serviceFee);
    event FeesWithdrawn(address indexed token, address indexed to, uint256 amount);

    error ZeroAdmin();
    error NotAdmin();
    error NotEnoughNativeForFees(uint256 sent, uint256 fees);

    /// The admin is set here (never zero): there is no initialisation transaction to front-run.
    constructor(address admin_, address serviceAccount_) {
        if (admin_ == address(0)) revert ZeroAdmin();
        admin = admin_;
        serviceAccount = serviceAccount_;
    }

    function collectTokenFees(address token, uint256 integratorFee, uint256 serviceFee, address integrator) external {
        // credited by what arrived (a fee-on-transfer token delivers less): the integrator's part first
        uint256 received = LibAsset.pull(token, msg.sender, integratorFee + serviceFee);
        if (integratorFee > received) integratorFee = received;
        serviceFee = received - integratorFee;
        balances[integrator][token] += integratorFee;
        balances[serviceAccount][token] += serviceFee;
        emit FeesCollected(token, integrator, integratorFee, serviceFee);
    }

    /// Keeps integratorFee + serviceFee of msg.value and sends the rest back to the caller.
    function collectNativeFees(uint256 integratorFee, uint256 serviceFee, address integrator) external payable {
        uint256 fees = integratorFee + serviceFee;
        if (msg.value < fees) revert NotEnoughNativeForFees(msg.value, fees);
        balances[integrator][address(0)] += integratorFee;
        balances[serviceAccount][address(0)] += serviceFee;
        emit FeesCollected(address(0), integrator, integratorFee, serviceFee);
        LibAsset.transfer(address(0), msg.sender, msg.value - fees);
    }

    function withdrawIntegratorFees(address token) public {
        uint256 amount = balances[msg.sender][token];
        if (amount == 0) return;
        balances[msg.sender][token] = 0;
        LibAsset.transfer(token, msg.sender, amount);
        emit FeesWithdrawn(token, msg.sender, amount);
    }

    function batchWithdrawIntegratorFees(address[] calldata tokens) external {
        for (uint256 k = 0; k < tokens.length; k++) withdrawIntegratorFees(tokens[k]);
    }

    function getTokenBalance(address integrator, address token) external view returns (uint256) {
        return balances[integrator][token];
    }

    /// Sandbox seeding: books fees already held by this contract (the ledger's balances), admin only.
    function seedBalances(address[] calldata integrators, address[] calldata tokens, uint256[] calldata amounts) external {
        if (msg.sender != admin) revert NotAdmin();
        for (uint256 k = 0; k < integrators.length; k++) balances[integrators[k]][tokens[k]] += amounts[k];
    }

    receive() external payable {}
}
