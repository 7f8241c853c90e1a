import { openai } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { createScriptedModel } from "./scripted-model";

/** OpenAI when OPENAI_API_KEY is set; otherwise the offline scripted model. */
export function getModel(): LanguageModel {
  if (process.env.OPENAI_API_KEY) return openai(process.env.OPENAI_MODEL ?? "gpt-5-mini");
  return createScriptedModel();
}
