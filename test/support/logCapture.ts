import pino, { type Logger } from 'pino';

/** A pino logger whose lines are kept in memory, parsed, for assertions about logging. */
export function captureLogger(level: pino.LevelWithSilent = 'debug'): { logger: Logger; lines: string[]; records: () => Array<Record<string, unknown>> } {
  const lines: string[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(line) });
  return { logger, lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}
