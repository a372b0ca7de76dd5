// The few SVG elements the trend chart draws (trendChart.ts), made with attributes and text
// content only: nothing is parsed as markup.

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svgElement<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

export function svgText(x: number, y: number, text: string, className: string, anchor: 'start' | 'middle' | 'end'): SVGTextElement {
  const element = svgElement('text', { x, y, class: className, 'text-anchor': anchor });
  element.textContent = text;
  return element;
}

export function polyline(coordinates: [number, number][], className: string): SVGPolylineElement {
  return svgElement('polyline', { points: coordinates.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' '), class: className });
}
