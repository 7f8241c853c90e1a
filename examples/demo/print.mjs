// Terminal output: colours only on a TTY, tables with aligned columns.
const useColour = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (useColour ? `\x1b[${code}m${text}\x1b[0m` : String(text));
export const bold = paint("1");
export const dim = paint("2");
export const green = paint("32");
export const yellow = paint("33");
export const red = paint("31");
export const cyan = paint("36");

export function step(text) {
  console.log(`${cyan("▸")} ${text}`);
}

export function indent(text, prefix = "    ") {
  return String(text)
    .split("\n")
    .map((line) => prefix + line)
    .join("\n");
}

/** Prints rows (arrays of strings) under headers, columns padded to their widest cell. */
export function table(headers, rows) {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => String(row[column]).length)),
  );
  const line = (cells) => cells.map((cell, column) => String(cell).padEnd(widths[column])).join("  ");
  console.log(indent(bold(line(headers))));
  console.log(indent(widths.map((width) => "─".repeat(width)).join("  ")));
  for (const row of rows) console.log(indent(line(row)));
}
