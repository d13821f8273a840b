/** Transactions of routes: the router's ABI, call-data encoding, transaction building, call-data parsing, step re-pricing. */
export * from './abi';
export * from './calldata';
export * from './ids';
export * from './context';
export * from './requestAddresses';
export * from './swapData';
export * from './build';
export * from './parse';
export * from './reprice';
