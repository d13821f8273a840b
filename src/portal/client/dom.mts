/** The page's DOM helpers: elements (h) and SVG elements (s) built with DOM calls, never from markup. */

export type Child = Node | string | number | false | null | undefined;
export type Attributes = Record<string, string | number | boolean | ((event: Event) => void) | undefined>;

/** An element with attributes (`on…` ones are listeners, `true`/`false` ones present or absent) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  element.append(...children.filter((child): child is Node | string | number => child !== false && child !== null && child !== undefined).map((child) => (typeof child === 'number' ? String(child) : child)));
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function s(tag: string, attributes: Record<string, string | number>, ...children: (Node | string)[]): SVGElement {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}
