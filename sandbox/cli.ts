/** What the sandbox's command lines (devnet.ts, service.ts) share: the `--chains` argument and stopping on a signal. */

/** The chain ids of `--chains 1,10,8453`, or undefined without it (the defaults apply). */
export function chainsArgument(argv: readonly string[] = process.argv): number[] | undefined {
  const arg = argv.indexOf('--chains');
  return arg >= 0 ? argv[arg + 1].split(',').map(Number) : undefined;
}

/** On the first Ctrl-C or SIGTERM: `stop()`, then exit (0 once stopped, 1 when stopping failed). */
export function stopOnSignal(stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    stop().then(() => process.exit(0), (error: Error) => {
      console.error(error);
      process.exit(1);
    });
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}
