/**
 * The part of react-dom 19 that the widget test's page uses (react-dom ships no types of its own and
 * @types/react-dom is not a dependency of the project): mounting a React tree into an element.
 */
declare module 'react-dom/client' {
  import type { ReactNode } from 'react';

  export interface Root {
    render(children: ReactNode): void;
    unmount(): void;
  }

  export function createRoot(container: Element | DocumentFragment): Root;
}
