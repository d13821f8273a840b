import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Middlewares run in order as one express middleware: each calls `next()` to go on, `next(error)` to leave for
 * the error handler, or answers and stops, exactly as in their own layers. Each layer of express's router costs
 * a little on every request (matching, parameter processing), and these run on every request.
 */
export function pipeline(...steps: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => new Run(steps, req, res, next).next();
}

/**
 * One request's way through the steps. Its `next` is made in the constructor: under tsx (esbuild's keepNames)
 * a named closure made per request would cost a defineProperty of its name on every request.
 */
class Run {
  private index = 0;
  readonly next: (error?: unknown) => void;

  constructor(
    private readonly steps: readonly RequestHandler[],
    private readonly req: Request,
    private readonly res: Response,
    private readonly done: NextFunction,
  ) {
    this.next = (error?: unknown) => this.step(error);
  }

  private step(error: unknown): void {
    if (error !== undefined || this.index === this.steps.length) {
      this.done(error);
      return;
    }
    const handler = this.steps[this.index++]!;
    // as express's layers do: a middleware that throws, or whose promise rejects, leaves for the error handler
    try {
      const returned: unknown = handler(this.req, this.res, this.next);
      if (returned instanceof Promise) returned.catch((rejected: unknown) => this.done(rejected ?? new Error('middleware rejected')));
    } catch (thrown) {
      this.done(thrown);
    }
  }
}
