/** GET /v1/gas/suggestion/{chain}: how much native gas to bring to a chain, and what to send for it (core/gas). */
import { GasSuggester, type GasSuggestionRequest } from '../core/gas/suggester';
import type { Dependencies } from '../server/dependencies';

export function gasSuggestion({ graph, routes }: Dependencies, query: GasSuggestionRequest) {
  return new GasSuggester(graph, routes).suggest(query);
}
