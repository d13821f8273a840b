/** GET /v1/gas/suggestion/{chain}: how much native gas to bring to a chain, and what to send for it (core/gas). */
import { GasSuggester, type GasSuggestionRequest } from '../core/gas/suggester';
import type { Ports } from './ports';

export function gasSuggestion({ graph, finder }: Ports, query: GasSuggestionRequest) {
  return new GasSuggester(graph, finder).suggest(query);
}
