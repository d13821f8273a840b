// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {LibAsset} from "../libraries/LibAsset.sol";
import {V3Pool} from "./V3Pool.sol";

/// Minimal Uniswap V3 SwapRouter-style router of one exchange: exactInput with the 5-field struct
/// (path, recipient, deadline, amountIn, amountOutMinimum) and the packed path token·fee(uint24)·token…, over the
/// pools registered by the admin (one per token pair and fee).
contract V3Router {
    struct ExactInputParams {
        bytes path;
        address recipient;
        uint256 deadline;
        uint256 amountIn;
        uint256 amountOutMinimum;
    }

    address public admin;
    mapping(bytes32 => address) public poolOf;
    mapping(address => bool) public isPool;

    error AlreadyInitialized();
    error NotAdmin();
    error Expired();
    error BadPath();
    error NoPool(address tokenA, address tokenB, uint24 fee);
    error TooLittleReceived(uint256 amountOut, uint256 amountOutMinimum);
    error NotPool();

    function initialize(address admin_) external {
        if (admin != address(0)) revert AlreadyInitialized();
        admin = admin_;
    }

    function registerPools(address[] calldata pools) external {
        if (msg.sender != admin) revert NotAdmin();
        for (uint256 k = 0; k < pools.length; k++) {
            V3Pool pool = V3Pool(pools[k]);
            poolOf[_key(pool.token0(), pool.token1(), pool.fee())] = address(pool);
            isPool[address(pool)] = true;
        }
    }

    function getPool(address tokenA, address tokenB, uint24 fee) public view returns (address pool) {
        pool = poolOf[_key(tokenA, tokenB, fee)];
        if (pool == address(0)) revert NoPool(tokenA, tokenB, fee);
    }

    function exactInput(ExactInputParams calldata params) external payable returns (uint256 amountOut) {
        if (params.deadline < block.timestamp) revert Expired();
        bytes calldata path = params.path;
        if (path.length < 43 || (path.length - 20) % 23 != 0) revert BadPath();
        uint256 hops = (path.length - 20) / 23;
        uint256 amount = params.amountIn;
        address payer = msg.sender;
        for (uint256 k = 0; k < hops; k++) {
            amount = _swap(path[k * 23:k * 23 + 43], amount, k + 1 < hops ? address(this) : params.recipient, payer);
            payer = address(this);
        }
        amountOut = amount;
        if (amountOut < params.amountOutMinimum) revert TooLittleReceived(amountOut, params.amountOutMinimum);
    }

    /// One hop: tokenIn (20 bytes) · fee (3 bytes) · tokenOut (20 bytes).
    function _swap(bytes calldata hop, uint256 amountIn, address recipient, address payer) private returns (uint256) {
        address tokenIn = address(bytes20(hop[0:20]));
        address pool = getPool(tokenIn, address(bytes20(hop[23:43])), uint24(bytes3(hop[20:23])));
        bool zeroForOne = V3Pool(pool).token0() == tokenIn;
        (int256 amount0, int256 amount1) = V3Pool(pool).swap(recipient, zeroForOne, int256(amountIn), 0, abi.encode(tokenIn, payer));
        return uint256(-(zeroForOne ? amount1 : amount0));
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        if (!isPool[msg.sender]) revert NotPool();
        (address tokenIn, address payer) = abi.decode(data, (address, address));
        uint256 amount = uint256(amount0Delta > 0 ? amount0Delta : amount1Delta);
        if (payer == address(this)) LibAsset.transfer(tokenIn, msg.sender, amount);
        else LibAsset.transferFrom(tokenIn, payer, msg.sender, amount);
    }

    function _key(address a, address b, uint24 fee) private pure returns (bytes32) {
        (address t0, address t1) = a < b ? (a, b) : (b, a);
        return keccak256(abi.encode(t0, t1, fee));
    }
}
