// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Minimal, LibAsset} from "../libraries/LibAsset.sol";

/// Uniswap V2-style pair with a fee in parts per million of the input (feePpm; 3000 = 0.3 % = Uniswap's 997/1000).
/// Seeded once by `initialize` with its tokens, fee and reserves (the sandbox mints exactly the reserves to the pair
/// first). `swap` checks the fee-adjusted invariant like UniswapV2Pair:
///   (balance0·1e6 − amount0In·fee)·(balance1·1e6 − amount1In·fee) ≥ reserve0·reserve1·1e12.
contract V2Pair {
    uint256 private constant PPM = 1_000_000;

    address public token0;
    address public token1;
    uint32 public feePpm;
    uint112 private reserve0;
    uint112 private reserve1;
    uint32 private blockTimestampLast;
    address public admin;

    event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to);
    event Sync(uint112 reserve0, uint112 reserve1);

    error AlreadyInitialized();
    error InsufficientOutputAmount();
    error InsufficientLiquidity();
    error InvalidTo();
    error InsufficientInputAmount();
    error K();

    function initialize(address token0_, address token1_, uint32 feePpm_, uint112 reserve0_, uint112 reserve1_) external {
        if (admin != address(0)) revert AlreadyInitialized();
        require(feePpm_ < PPM, "fee");
        admin = msg.sender;
        token0 = token0_;
        token1 = token1_;
        feePpm = feePpm_;
        _update(reserve0_, reserve1_);
    }

    function getReserves() external view returns (uint112, uint112, uint32) {
        return (reserve0, reserve1, blockTimestampLast);
    }

    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata) external {
        if (amount0Out == 0 && amount1Out == 0) revert InsufficientOutputAmount();
        (uint112 r0, uint112 r1) = (reserve0, reserve1);
        if (amount0Out >= r0 || amount1Out >= r1) revert InsufficientLiquidity();
        (uint256 balance0, uint256 balance1) = _pay(amount0Out, amount1Out, to);
        uint256 amount0In = balance0 > r0 - amount0Out ? balance0 - (r0 - amount0Out) : 0;
        uint256 amount1In = balance1 > r1 - amount1Out ? balance1 - (r1 - amount1Out) : 0;
        if (amount0In == 0 && amount1In == 0) revert InsufficientInputAmount();
        _checkK(balance0, balance1, amount0In, amount1In, r0, r1);
        _update(balance0, balance1);
        emit Swap(msg.sender, amount0In, amount1In, amount0Out, amount1Out, to);
    }

    function _pay(uint256 amount0Out, uint256 amount1Out, address to) private returns (uint256 balance0, uint256 balance1) {
        address t0 = token0;
        address t1 = token1;
        if (to == t0 || to == t1) revert InvalidTo();
        LibAsset.transfer(t0, to, amount0Out);
        LibAsset.transfer(t1, to, amount1Out);
        balance0 = IERC20Minimal(t0).balanceOf(address(this));
        balance1 = IERC20Minimal(t1).balanceOf(address(this));
    }

    function _checkK(uint256 balance0, uint256 balance1, uint256 amount0In, uint256 amount1In, uint256 r0, uint256 r1) private view {
        uint256 fee = feePpm;
        uint256 adjusted0 = balance0 * PPM - amount0In * fee;
        uint256 adjusted1 = balance1 * PPM - amount1In * fee;
        if (adjusted0 * adjusted1 < r0 * r1 * PPM * PPM) revert K();
    }

    function _update(uint256 balance0, uint256 balance1) private {
        require(balance0 <= type(uint112).max && balance1 <= type(uint112).max, "overflow");
        reserve0 = uint112(balance0);
        reserve1 = uint112(balance1);
        blockTimestampLast = uint32(block.timestamp);
        emit Sync(reserve0, reserve1);
    }
}
