import { describe, expect, it } from "vitest";
import { createSearchIndex } from "../../../src/connectors/search/search-index.js";
import { expansionOf } from "../../../src/connectors/search/expansions.js";
import { WORDNET_EXPANSIONS } from "../../../src/connectors/search/wordnet-expansions.js";
import { methodDocument } from "../fixtures/search-document.js";

const doc = methodDocument;

describe("WordNet expansions (generated data)", () => {
  it("map everyday words, in any inflection, to the API words WordNet lists them as synonyms of", () => {
    expect(expansionOf("altitude")?.split(" ")).toContain("elevation");
    expect(expansionOf("choosing")?.split(" ")).toContain("select");
    expect(expansionOf("take off")?.split(" ")).toContain("start");
    expect(expansionOf("zzzz")).toBeUndefined();
  });

  it("find a method through the expansion of a query word the catalog does not use, and not without it", () => {
    const index = createSearchIndex([
      doc("maps.get_elevation", "Get elevation data for locations on the earth."),
      doc("maps.get_weather", "Get the weather forecast for a city."),
    ]);
    expect(index.search("altitude of a mountain").results[0]?.path).toBe("maps.get_elevation");
    expect(index.search("altitude of a mountain", { expansions: false }).results).toEqual([]);
  });

  it("never rank an expansion above the method that uses the query's own word", () => {
    const lines = WORDNET_EXPANSIONS.split("\n").filter((line) => /^[a-z]+:/.test(line));
    // Every 7th single-word key, with each API word it expands to (a few hundred pairs).
    for (const line of lines.filter((_, position) => position % 7 === 0)) {
      const [key, targets] = line.split(":") as [string, string];
      for (const target of targets.split(" ")) {
        const index = createSearchIndex([
          doc(`a.${target}_item`, `${target} an item.`),
          doc(`b.${key}_item`, `${key} an item.`),
        ]);
        expect(index.search(key).results[0]?.path, `${key} → ${target}`).toBe(`b.${key}_item`);
      }
    }
  });
});
