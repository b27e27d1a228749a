// Translations come from Django's JavaScript catalogue (/jsi18n/), loaded as a classic script
// before these modules. Without it the English source strings are shown.
const g = globalThis;

export const gettext = g.gettext || ((s) => s);
export const ngettext = g.ngettext || ((one, many, n) => (n === 1 ? one : many));

/** Fill %(name)s placeholders from an object: interpolate("%(n)s cards", {n: 3}). */
export function interpolate(fmt, values) {
  return fmt.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
}
