/** What an icon is made of (see index.ts), and its markup for .astro pages. */

/** The attributes a shape may carry (React names; `iconMarkup` writes the SVG ones). */
interface ShapeAttributes {
  d?: string;
  cx?: number;
  cy?: number;
  r?: number;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  rx?: number;
  fill?: string;
  stroke?: string;
  strokeWidth?: number;
}

type IconShape = readonly ['path' | 'circle' | 'rect', ShapeAttributes];
/** One icon: its shapes in drawing order. */
export type IconData = readonly IconShape[];

const svgName = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** An icon's inner SVG markup (`<path d="…"/>…`), for `set:html` on an .astro `<svg>`. */
export function iconMarkup(icon: IconData): string {
  return icon
    .map(([tag, attributes]) => {
      const pairs = Object.entries(attributes).map(([key, value]) => `${svgName(key)}="${value}"`);
      return `<${tag} ${pairs.join(' ')}/>`;
    })
    .join('');
}
