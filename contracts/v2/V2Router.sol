// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {LibAsset} from "../libraries/LibAsset.sol";
import {V2Pair} from "./V2Pair.sol";

/// Minimal Uniswap V2 Router02-style router of one exchange: swapExactTokensForTokens over the pairs registered
/// by the admin. The output of each hop is the exact integer formula of the routing core (constantProduct.ts):
///   out = floor(aIn·(1e6 − fee)·rOut / (rIn·1e6 + aIn·(1e6 − fee))).
contract V2Router {
    uint256 private constant PPM = 1_000_000;

    address public admin;
    mapping(address => mapping(address => address)) public getPair;

    error AlreadyInitialized();
    error NotAdmin();
    error Expired();
    error InvalidPath();
    error NoPair(address tokenA, address tokenB);
    error InsufficientOutputAmount(uint256 amountOut, uint256 amountOutMin);

    function initialize(address admin_) external {
        if (admin != address(0)) revert AlreadyInitialized();
        admin = admin_;
    }

    function registerPairs(address[] calldata pairs) external {
        if (msg.sender != admin) revert NotAdmin();
        for (uint256 k = 0; k < pairs.length; k++) {
            V2Pair pair = V2Pair(pairs[k]);
            address t0 = pair.token0();
            address t1 = pair.token1();
            getPair[t0][t1] = address(pair);
            getPair[t1][t0] = address(pair);
        }
    }

    function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut, uint256 feePpm) public pure returns (uint256) {
        if (amountIn == 0 || reserveIn == 0 || reserveOut == 0) return 0;
        uint256 amountInWithFee = amountIn * (PPM - feePpm);
        return (amountInWithFee * reserveOut) / (reserveIn * PPM + amountInWithFee); // rounds down
    }

    function getAmountsOut(uint256 amountIn, address[] calldata path) public view returns (uint256[] memory amounts) {
        if (path.length < 2) revert InvalidPath();
        amounts = new uint256[](path.length);
        amounts[0] = amountIn;
        for (uint256 k = 0; k + 1 < path.length; k++) {
            address pair = _pair(path[k], path[k + 1]);
            (uint112 r0, uint112 r1, ) = V2Pair(pair).getReserves();
            bool zeroIn = V2Pair(pair).token0() == path[k];
            amounts[k + 1] = getAmountOut(amounts[k], zeroIn ? r0 : r1, zeroIn ? r1 : r0, V2Pair(pair).feePpm());
        }
    }

    function swapExactTokensForTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external returns (uint256[] memory amounts) {
        if (deadline < block.timestamp) revert Expired();
        amounts = getAmountsOut(amountIn, path);
        uint256 amountOut = amounts[amounts.length - 1];
        if (amountOut < amountOutMin) revert InsufficientOutputAmount(amountOut, amountOutMin);
        LibAsset.transferFrom(path[0], msg.sender, _pair(path[0], path[1]), amountIn);
        for (uint256 k = 0; k + 1 < path.length; k++) {
            address pair = _pair(path[k], path[k + 1]);
            bool zeroIn = V2Pair(pair).token0() == path[k];
            address next = k + 2 < path.length ? _pair(path[k + 1], path[k + 2]) : to;
            (uint256 out0, uint256 out1) = zeroIn ? (uint256(0), amounts[k + 1]) : (amounts[k + 1], uint256(0));
            V2Pair(pair).swap(out0, out1, next, "");
        }
    }

    function _pair(address a, address b) private view returns (address pair) {
        pair = getPair[a][b];
        if (pair == address(0)) revert NoPair(a, b);
    }
}
