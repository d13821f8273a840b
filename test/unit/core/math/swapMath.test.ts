import { isqrt } from '../../../../src/core/math/rational';
import { computeSwapStep } from '../../../../src/core/math/swapMath';

const E18 = 10n ** 18n;
const encodePriceSqrt = (reserve1: bigint, reserve0: bigint): bigint => isqrt((reserve1 << 192n) / reserve0);
const P1 = encodePriceSqrt(1n, 1n);

// Vectors of Uniswap v3-core test/SwapMath.spec.ts (fee 600 pips = 0.06 %).
describe('SwapMath.computeSwapStep — Uniswap v3-core vectors', () => {
  it('exact in, capped at the target price (one for zero)', () => {
    // target √1.01 ≈ 1.004987562; token1 needed to get there = L·(√1.01 − 1) = 2e18·0.004987562 ≈ 9.975e15
    // 1e18 is more than enough, so the step stops at the target and charges fee ceil(in·600/999400)
    const target = encodePriceSqrt(101n, 100n);
    const s = computeSwapStep(P1, target, 2n * E18, E18, 600n);
    expect(s).toEqual({
      sqrtRatioNextX96: target,
      amountIn: 9975124224178055n,
      amountOut: 9925619580021728n, // ≈ L·(1 − 1/√1.01) = 2e18·0.00496281
      feeAmount: 5988667735148n, // ceil(9975124224178055·600/999400) = ceil(5988667735147.72)
    });
  });

  it('exact out, capped at the target price (one for zero): the same amounts', () => {
    const target = encodePriceSqrt(101n, 100n);
    expect(computeSwapStep(P1, target, 2n * E18, -E18, 600n)).toEqual({
      sqrtRatioNextX96: target,
      amountIn: 9975124224178055n,
      amountOut: 9925619580021728n,
      feeAmount: 5988667735148n,
    });
  });

  it('exact in, fully spent before the target (one for zero)', () => {
    // in after fee = 1e18·999400/1e6 = 999400000000000000; fee = the rest = 6e14
    const target = encodePriceSqrt(1000n, 100n);
    const s = computeSwapStep(P1, target, 2n * E18, E18, 600n);
    expect(s.amountIn).toBe(999400000000000000n);
    expect(s.feeAmount).toBe(600000000000000n);
    // √P' = 1 + 0.9994/2 = 1.4997; out = L·(1 − 1/1.4997) = 2e18·0.33320 ≈ 6.664e17
    expect(s.amountOut).toBe(666399946655997866n);
    expect(s.amountIn + s.feeAmount).toBe(E18);
    expect(s.sqrtRatioNextX96 < target).toBe(true);
  });

  it('exact out, fully received before the target (one for zero)', () => {
    // 1e18 token0 out of L = 2e18 at price 1: √P' = 1/(1 − 0.5) = 2, token1 in = L·(2 − 1) = 2e18
    const s = computeSwapStep(P1, encodePriceSqrt(10000n, 100n), 2n * E18, -E18, 600n);
    expect(s).toEqual({
      sqrtRatioNextX96: 2n * P1,
      amountIn: 2000000000000000000n,
      amountOut: E18,
      feeAmount: 1200720432259356n, // ceil(2e18·600/999400) = ceil(1200720432259355.6)
    });
  });

  it('amount out is capped at the desired amount out', () => {
    expect(
      computeSwapStep(
        417332158212080721273783715441582n,
        1452870262520218020823638996n,
        159344665391607089467575320103n,
        -1n,
        1n,
      ),
    ).toEqual({ sqrtRatioNextX96: 417332158212080721273783715441581n, amountIn: 1n, amountOut: 1n, feeAmount: 1n });
  });

  it('target price of 1 uses partial input amount', () => {
    const s = computeSwapStep(2n, 1n, 1n, 3915081100057732413702495386755767n, 1n);
    expect(s).toEqual({
      sqrtRatioNextX96: 1n,
      amountIn: 39614081257132168796771975168n, // L·2^96·(2 − 1)/(2·1) = 2^95
      amountOut: 0n,
      feeAmount: 39614120871253040049813n, // ceil(2^95·1/999999)
    });
    expect(s.amountIn + s.feeAmount <= 3915081100057732413702495386755767n).toBe(true);
  });

  it('entire input amount taken as fee', () => {
    // 10·(1e6 − 1872)/1e6 = 9.98 → 9 after fee; the price cannot move by one unit, so all 10 is fee
    expect(computeSwapStep(2413n, 79887613182836312n, 1985041575832132834610021537970n, 10n, 1872n)).toEqual({
      sqrtRatioNextX96: 2413n,
      amountIn: 0n,
      amountOut: 0n,
      feeAmount: 10n,
    });
  });

  it('insufficient liquidity in the range, exact output, price moving up (v3-core "zero for one" case)', () => {
    // √P = 2^104 → real √P = 2^104/2^96 = 256; target ×1.1 = 281.6; L = 1024. Token1 in, token0 out.
    // token0 over the whole range = L·(√B − √A)/(√A·√B) = 1024·25.6/(256·281.6) = 0.3636 → 0 (rounded down),
    // so asking for 4 stops at the target with nothing out
    const sqrtP = 20282409603651670423947251286016n; // 2^104
    expect(computeSwapStep(sqrtP, (sqrtP * 11n) / 10n, 1024n, -4n, 3000n)).toEqual({
      sqrtRatioNextX96: (sqrtP * 11n) / 10n,
      amountIn: 26215n, // token1 = L·(√B − √A) = 1024·25.6 = 26214.4 → 26215 (rounded up)
      amountOut: 0n,
      feeAmount: 79n, // ceil(26215·3000/997000) = ceil(78.88)
    });
  });

  it('insufficient liquidity in the range, exact output, price moving down (v3-core "one for zero" case)', () => {
    // real √P 256 down to 230.4, L = 1024. Token0 in, token1 out.
    // token1 over the whole range = L·(√A − √B) = 1024·25.6 = 26214.4 → 26214 (rounded down) < 263000 wanted
    const sqrtP = 20282409603651670423947251286016n;
    expect(computeSwapStep(sqrtP, (sqrtP * 9n) / 10n, 1024n, -263000n, 3000n)).toEqual({
      sqrtRatioNextX96: (sqrtP * 9n) / 10n,
      amountIn: 1n, // token0 = L·(√A − √B)/(√A·√B) = 1024·25.6/(256·230.4) = 0.444 → 1 (rounded up)
      amountOut: 26214n,
      feeAmount: 1n, // ceil(1·3000/997000)
    });
  });

  it('zero liquidity moves straight to the target for free', () => {
    expect(computeSwapStep(P1, encodePriceSqrt(1n, 2n), 0n, 1000n, 3000n)).toEqual({
      sqrtRatioNextX96: encodePriceSqrt(1n, 2n),
      amountIn: 0n,
      amountOut: 0n,
      feeAmount: 0n,
    });
  });
});
