/**
 * The lines an MCP stdio server reads, minus those that are not JSON: the MCP SDK v2 skips such
 * a line in silence, where a host that sent it (a bug, a stray write) should hear why nothing
 * answered. Each is dropped here and `refuse` told its parse error; JSON lines pass unchanged.
 */
import { Transform } from "node:stream";

/** A stream of stdin's lines without the ones that are not JSON (each given to `refuse`). */
export function guardJsonLines(refuse: (error: SyntaxError) => void): Transform {
  let rest = "";
  const check = (line: string): string | undefined => {
    const text = line.replace(/\r$/, "");
    if (text.trim() === "") return undefined;
    try {
      JSON.parse(text);
      return `${line}\n`;
    } catch (error) {
      refuse(error instanceof SyntaxError ? error : new SyntaxError(String(error)));
      return undefined;
    }
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const lines = (rest + chunk.toString("utf8")).split("\n");
      rest = lines.pop() ?? "";
      done(
        null,
        lines
          .map(check)
          .filter((line) => line !== undefined)
          .join(""),
      );
    },
    flush(done) {
      done(null, check(rest) ?? "");
    },
  });
}
