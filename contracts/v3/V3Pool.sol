// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Minimal, LibAsset} from "../libraries/LibAsset.sol";
import {SwapMath} from "./SwapMath.sol";
import {TickMath} from "./TickMath.sol";

interface IUniswapV3SwapCallback {
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external;
}

/// Concentrated-liquidity pool (Uniswap V3 swap loop) over a window of initialised ticks, the state of the routing
/// core's snapshot (concentrated.ts): price, tick, active liquidity, and the initialised ticks as a sorted array
/// with their liquidityNet. The swap walks the ticks exactly like UniswapV3Pool.swap (steps stop at initialised
/// ticks and at 256-compressed-tick word boundaries) and pays like it (output first, then the
/// uniswapV3SwapCallback, then a balance check). Beyond the last initialised tick of the window nothing is known:
/// a swap that would leave the window reverts (the core reports such a quote as exhausted, never as a route).
contract V3Pool {
    address public token0;
    address public token1;
    uint24 public fee;
    int24 public tickSpacing;
    uint160 private sqrtPriceX96_;
    int24 private tick_;
    uint128 public liquidity;
    address public admin;
    int24[] private ticks;
    mapping(int24 => int128) public liquidityNet;

    event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick);

    error AlreadyInitialized();
    error BadTicks();
    error AmountSpecifiedZero();
    error SqrtPriceLimit();
    error WindowExhausted();
    error InsufficientInput();
    error LiquidityUnderflow();

    struct State {
        int256 remaining;
        uint160 sqrtPriceX96;
        int24 tick;
        uint128 liquidity;
        uint256 amountIn;
        uint256 amountOut;
    }

    function initialize(
        address token0_,
        address token1_,
        uint24 fee_,
        int24 tickSpacing_,
        uint160 sqrtPriceX96,
        int24 tick,
        uint128 liquidity_,
        int24[] calldata ticks_,
        int128[] calldata liquidityNets
    ) external {
        if (admin != address(0)) revert AlreadyInitialized();
        if (tickSpacing_ <= 0 || ticks_.length != liquidityNets.length || fee_ >= 1e6) revert BadTicks();
        admin = msg.sender;
        token0 = token0_;
        token1 = token1_;
        fee = fee_;
        tickSpacing = tickSpacing_;
        sqrtPriceX96_ = sqrtPriceX96;
        tick_ = tick;
        liquidity = liquidity_;
        for (uint256 k = 0; k < ticks_.length; k++) {
            if (ticks_[k] % tickSpacing_ != 0 || (k > 0 && ticks_[k - 1] >= ticks_[k])) revert BadTicks();
            ticks.push(ticks_[k]);
            liquidityNet[ticks_[k]] = liquidityNets[k];
        }
    }

    function slot0() external view returns (uint160 sqrtPriceX96, int24 tick) {
        return (sqrtPriceX96_, tick_);
    }

    function initializedTicks() external view returns (int24[] memory) {
        return ticks;
    }

    /// The swap's amounts and final state without executing it (amountSpecified ≥ 0: exact input); reverts
    /// WindowExhausted like `swap`.
    function quote(bool zeroForOne, int256 amountSpecified)
        external
        view
        returns (uint256 amountIn, uint256 amountOut, uint160 sqrtPriceAfter, int24 tickAfter, uint128 liquidityAfter)
    {
        if (amountSpecified == 0) revert AmountSpecifiedZero();
        State memory s = State(amountSpecified, sqrtPriceX96_, tick_, liquidity, 0, 0);
        _loop(s, zeroForOne, zeroForOne ? TickMath.MIN_SQRT_RATIO + 1 : TickMath.MAX_SQRT_RATIO - 1, ticks);
        return (s.amountIn, s.amountOut, s.sqrtPriceX96, s.tick, s.liquidity);
    }

    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1)
    {
        if (amountSpecified == 0) revert AmountSpecifiedZero();
        if (sqrtPriceLimitX96 == 0) sqrtPriceLimitX96 = zeroForOne ? TickMath.MIN_SQRT_RATIO + 1 : TickMath.MAX_SQRT_RATIO - 1;
        State memory s = State(amountSpecified, sqrtPriceX96_, tick_, liquidity, 0, 0);
        if (zeroForOne ? sqrtPriceLimitX96 >= s.sqrtPriceX96 || sqrtPriceLimitX96 <= TickMath.MIN_SQRT_RATIO
                       : sqrtPriceLimitX96 <= s.sqrtPriceX96 || sqrtPriceLimitX96 >= TickMath.MAX_SQRT_RATIO) revert SqrtPriceLimit();
        uint128 liquidityStart = s.liquidity;
        _loop(s, zeroForOne, sqrtPriceLimitX96, ticks);

        sqrtPriceX96_ = s.sqrtPriceX96;
        tick_ = s.tick;
        if (s.liquidity != liquidityStart) liquidity = s.liquidity;

        (address tokenIn, address tokenOut) = zeroForOne ? (token0, token1) : (token1, token0);
        (amount0, amount1) = zeroForOne
            ? (int256(s.amountIn), -int256(s.amountOut))
            : (-int256(s.amountOut), int256(s.amountIn));
        LibAsset.transfer(tokenOut, recipient, s.amountOut);
        uint256 before = IERC20Minimal(tokenIn).balanceOf(address(this));
        IUniswapV3SwapCallback(msg.sender).uniswapV3SwapCallback(amount0, amount1, data);
        if (IERC20Minimal(tokenIn).balanceOf(address(this)) < before + s.amountIn) revert InsufficientInput();
        emit Swap(msg.sender, recipient, amount0, amount1, s.sqrtPriceX96, s.liquidity, s.tick);
    }

    function _loop(State memory s, bool zeroForOne, uint160 limit, int24[] memory window) private view {
        uint24 feePips = fee;
        int24 spacing = tickSpacing;
        while (s.remaining != 0) {
            // leaving the window: no initialised tick is known beyond this point in the swap direction
            uint256 n = window.length;
            bool inside = n > 0 && (zeroForOne ? window[0] <= s.tick : window[n - 1] > s.tick);
            if (!inside || s.sqrtPriceX96 == limit) revert WindowExhausted();
            uint160 start = s.sqrtPriceX96;
            (int24 next, bool initialized) = nextInitializedTickWithinOneWord(window, s.tick, spacing, zeroForOne);
            if (next < TickMath.MIN_TICK) next = TickMath.MIN_TICK;
            else if (next > TickMath.MAX_TICK) next = TickMath.MAX_TICK;
            uint160 sqrtNext = TickMath.getSqrtRatioAtTick(next);
            _step(s, (zeroForOne ? sqrtNext < limit : sqrtNext > limit) ? limit : sqrtNext, feePips);
            if (s.sqrtPriceX96 == sqrtNext) {
                if (initialized) _cross(s, next, zeroForOne);
                s.tick = zeroForOne ? next - 1 : next;
            } else if (s.sqrtPriceX96 != start) {
                s.tick = TickMath.getTickAtSqrtRatio(s.sqrtPriceX96);
            }
        }
    }

    function _step(State memory s, uint160 target, uint24 feePips) private pure {
        bool exactInput = s.remaining > 0;
        (uint160 price, uint256 stepIn, uint256 stepOut, uint256 stepFee) =
            SwapMath.computeSwapStep(s.sqrtPriceX96, target, s.liquidity, s.remaining, feePips);
        s.sqrtPriceX96 = price;
        if (exactInput) s.remaining -= int256(stepIn + stepFee);
        else s.remaining += int256(stepOut);
        s.amountIn += stepIn + stepFee;
        s.amountOut += stepOut;
    }

    /// Crossing down removes what crossing up adds (liquidityNet negated when zeroForOne).
    function _cross(State memory s, int24 tick, bool zeroForOne) private view {
        int128 net = liquidityNet[tick];
        if (zeroForOne) net = -net;
        int256 l = int256(uint256(s.liquidity)) + net;
        if (l < 0 || l > int256(uint256(type(uint128).max))) revert LiquidityUnderflow();
        s.liquidity = uint128(uint256(l));
    }

    /// TickBitmap.nextInitializedTickWithinOneWord on the sorted tick list (concentrated.ts).
    function nextInitializedTickWithinOneWord(int24[] memory window, int24 tick, int24 spacing, bool lte)
        internal
        pure
        returns (int24 next, bool initialized)
    {
        int256 compressed = int256(tick) / spacing;
        if (tick < 0 && tick % spacing != 0) compressed--; // rounds towards −∞
        int256 k = _lastAtOrBelow(window, tick);
        if (lte) {
            int256 wordStart = (compressed >> 8) * 256 * spacing;
            if (k >= 0 && window[uint256(k)] >= wordStart) return (window[uint256(k)], true);
            return (int24(wordStart), false);
        }
        int256 wordEnd = (((compressed + 1) >> 8) * 256 + 255) * spacing;
        uint256 up = uint256(k + 1);
        if (up < window.length && window[up] <= wordEnd) return (window[up], true);
        return (int24(wordEnd), false);
    }

    function _lastAtOrBelow(int24[] memory window, int24 tick) private pure returns (int256 found) {
        found = -1;
        uint256 lo = 0;
        uint256 hi = window.length;
        while (lo < hi) {
            uint256 mid = (lo + hi) >> 1;
            if (window[mid] <= tick) {
                found = int256(mid);
                lo = mid + 1;
            } else hi = mid;
        }
    }
}
