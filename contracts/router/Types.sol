// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The router's call data types (src/core/transactions/abi.ts).
struct BridgeData {
    bytes32 transactionId;
    string bridge;
    string integrator;
    address referrer;
    address sendingAssetId;
    address receiver;
    uint256 minAmount;
    uint256 destinationChainId;
    bool hasSourceSwaps;
    bool hasDestinationCall;
}

struct SwapData {
    address callTo;
    address approveTo;
    address sendingAssetId;
    address receivingAssetId;
    uint256 fromAmount;
    bytes callData;
    bool requiresDeposit;
}

/// The generic <Bridge>Data of every bridge facet.
struct BridgeSpecificData {
    address receiverOnDestination;
    bytes nonEVMReceiver;
    uint256 destinationMinAmount;
    bytes destinationCallData;
}

/// What the router hands to the bridge endpoint on the source chain (emitted in its Deposited event).
struct DepositRequest {
    string bridge;
    bytes32 transactionId;
    address token;
    uint256 amount;
    uint256 destinationChainId;
    /// Paid on the destination: the destination router when there is a destination call, else the receiver.
    address receiverOnDestination;
    /// The final receiver (BridgeData.receiver): paid directly when the destination call fails.
    address receiver;
    bytes nonEVMReceiver;
    /// Without a destination call: the least amount the receiver must get, else the bridge refunds.
    uint256 destinationMinAmount;
    bytes destinationCallData;
    address refundTo;
}

interface IBridgeEndpoint {
    function deposit(DepositRequest calldata request) external payable returns (uint256 depositId);
}
