/** Gas suggestions: the 10 approvals + 10 swaps sample, the recommended and limit amounts, and what they cost in a fromToken (suggester). */
export * from './sample';
export * from './suggestion';
export * from './suggester';
