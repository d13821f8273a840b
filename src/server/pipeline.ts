import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Middlewares run in order as one express middleware: each calls `next()` to go on, `next(error)` to leave for
 * the error handler, or answers and stops, exactly as in their own layers. Each layer of express's router costs
 * a little on every request (matching, parameter processing), and these run on every request.
 */
export function pipeline(...steps: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined || index === steps.length) {
        next(error);
        return;
      }
      const handler = steps[index++]!;
      try {
        void handler(req, res, step);
      } catch (thrown) {
        next(thrown); // as express's layers do with a middleware that throws
      }
    };
    step();
  };
}
