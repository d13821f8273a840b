// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The code an EIP-7702 test wallet delegates to: nothing but accepting the native coin, so that the wallet stays an
/// ordinary signer (the ecosystem SDK uses native EIP-2612 permits for plain and EIP-7702 delegated accounts).
contract EmptyDelegate {
    receive() external payable {}
}
