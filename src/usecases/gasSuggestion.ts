/** GET /v1/gas/suggestion/{chain}: how much native gas to bring to a chain, and what to send for it (core/gas). */
import { GasSuggester, type GasSuggestionRequest } from '../core/gas/suggester';
import type { Dependencies } from '../server/dependencies';

export function gasSuggestion({ graph, finder }: Dependencies, query: GasSuggestionRequest) {
  return new GasSuggester(graph, finder).suggest(query);
}
