/** Gas suggestions: the 10 approvals + 10 swaps sample, the recommended and limit amounts, refuel pricing. */
export * from './sample';
export * from './suggestion';
export * from './refuel';
