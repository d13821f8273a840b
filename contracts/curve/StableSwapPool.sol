// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Minimal, LibAsset} from "../libraries/LibAsset.sol";

/// Curve StableSwap pool (classic form, A_PRECISION 1) for 2 to 8 coins, with the integer math of the routing core
/// (stableswap.ts, ported from StableSwap3Pool.vy):
///  - RATES: rate_k = 10^(36 − decimals_k), read from the coins' decimals() at initialisation;
///  - xp_k = balance_k·rate_k/1e18; get_D and get_y by Newton's method, every division rounding down;
///  - exchange: dy = xp_j − y − 1; fee = dy·fee/1e10 (on the 18-decimal amount); out = (dy − fee)·1e18/rate_j.
/// No admin fee: the whole fee stays in the pool (balance_j −= out).
contract StableSwapPool {
    uint256 private constant PRECISION = 1e18;
    uint256 private constant FEE_DENOMINATOR = 1e10;
    uint256 private constant MAX_ITERATIONS = 255;

    address[] private coinList;
    uint256[] private rateList;
    uint256[] private balanceList;
    uint256 public A;
    uint256 public fee;
    address public admin;

    event TokenExchange(address indexed buyer, int128 sold_id, uint256 tokens_sold, int128 bought_id, uint256 tokens_bought);

    error AlreadyInitialized();
    error BadCoins();
    error BadIndex();
    error Slippage(uint256 dy, uint256 minDy);
    error NoConvergence();
    error ZeroOutput();

    function initialize(address[] calldata coins_, uint256[] calldata balances_, uint256 amp, uint256 fee_) external {
        if (admin != address(0)) revert AlreadyInitialized();
        if (coins_.length < 2 || coins_.length > 8 || balances_.length != coins_.length) revert BadCoins();
        require(amp >= 1 && fee_ < FEE_DENOMINATOR, "params");
        admin = msg.sender;
        for (uint256 k = 0; k < coins_.length; k++) {
            coinList.push(coins_[k]);
            uint8 d = IERC20Minimal(coins_[k]).decimals();
            require(d <= 36, "decimals");
            rateList.push(10 ** (36 - uint256(d)));
            balanceList.push(balances_[k]);
        }
        A = amp;
        fee = fee_;
    }

    function coins(uint256 k) external view returns (address) {
        return coinList[k];
    }

    function balances(uint256 k) external view returns (uint256) {
        return balanceList[k];
    }

    function rates(uint256 k) external view returns (uint256) {
        return rateList[k];
    }

    function N_COINS() external view returns (uint256) {
        return coinList.length;
    }

    /// The output of exchange(i, j, dx, 0) in the current state.
    function get_dy(int128 i, int128 j, uint256 dx) external view returns (uint256) {
        (uint256 dy, ) = _dy(_index(i), _index(j), dx);
        return dy;
    }

    function exchange(int128 i, int128 j, uint256 dx, uint256 min_dy) external payable returns (uint256) {
        uint256 ui = _index(i);
        uint256 uj = _index(j);
        (uint256 dy, ) = _dy(ui, uj, dx);
        if (dy == 0) revert ZeroOutput();
        if (dy < min_dy) revert Slippage(dy, min_dy);
        balanceList[ui] += dx;
        balanceList[uj] -= dy;
        LibAsset.transferFrom(coinList[ui], msg.sender, address(this), dx);
        LibAsset.transfer(coinList[uj], msg.sender, dy);
        emit TokenExchange(msg.sender, i, dx, j, dy);
        return dy;
    }

    function _index(int128 i) private view returns (uint256) {
        if (i < 0 || uint256(uint128(i)) >= coinList.length) revert BadIndex();
        return uint256(uint128(i));
    }

    function _dy(uint256 i, uint256 j, uint256 dx) private view returns (uint256 dy, uint256 dyFee) {
        if (i == j) revert BadIndex();
        uint256 n = coinList.length;
        uint256[] memory xp = new uint256[](n);
        uint256[] memory r = rateList;
        uint256[] memory b = balanceList;
        for (uint256 k = 0; k < n; k++) {
            if (b[k] == 0) return (0, 0);
            xp[k] = (b[k] * r[k]) / PRECISION; // rounds down
        }
        if (dx == 0) return (0, 0);
        uint256 x = xp[i] + (dx * r[i]) / PRECISION; // rounds down
        uint256 y = _getY(i, j, x, xp, A);
        if (xp[j] <= y + 1) return (0, 0);
        uint256 dyXp = xp[j] - y - 1;
        dyFee = (dyXp * fee) / FEE_DENOMINATOR; // rounds down, on the 18-decimal amount
        dy = ((dyXp - dyFee) * PRECISION) / r[j]; // rounds down
    }

    function _getD(uint256[] memory xp, uint256 amp) private pure returns (uint256) {
        uint256 n = xp.length;
        uint256 s = 0;
        for (uint256 k = 0; k < n; k++) s += xp[k];
        if (s == 0) return 0;
        uint256 ann = amp * n;
        uint256 d = s;
        for (uint256 it = 0; it < MAX_ITERATIONS; it++) {
            uint256 dP = d;
            for (uint256 k = 0; k < n; k++) dP = (dP * d) / (xp[k] * n);
            uint256 dPrev = d;
            d = ((ann * s + dP * n) * d) / ((ann - 1) * d + (n + 1) * dP);
            if (d > dPrev ? d - dPrev <= 1 : dPrev - d <= 1) break;
        }
        return d;
    }

    function _getY(uint256 i, uint256 j, uint256 x, uint256[] memory xp, uint256 amp) private pure returns (uint256) {
        uint256 n = xp.length;
        uint256 d = _getD(xp, amp);
        uint256 ann = amp * n;
        uint256 c = d;
        uint256 sPrime = 0;
        for (uint256 k = 0; k < n; k++) {
            if (k == j) continue;
            uint256 xk = k == i ? x : xp[k];
            sPrime += xk;
            c = (c * d) / (xk * n);
        }
        c = (c * d) / (ann * n);
        uint256 b = sPrime + d / ann;
        uint256 y = d;
        for (uint256 it = 0; it < MAX_ITERATIONS; it++) {
            uint256 yPrev = y;
            if (2 * y + b <= d) revert NoConvergence();
            y = (y * y + c) / (2 * y + b - d);
            if (y > yPrev ? y - yPrev <= 1 : yPrev - y <= 1) break;
        }
        return y;
    }
}
