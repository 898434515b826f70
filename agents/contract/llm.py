"""The model path through litellm: planning by function calling, the relevance judge, synthesis.

Every call is recorded as a trace step with its model, tokens and cost, and counted against
the turn budget. Synthesis gets no tools, so clause text cannot make the model call anything.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents.contract import prompts
from agents.contract.index import Hit
from agents.contract.registry import ToolCall
from agents.evidence import Stopwatch
from agents.llm import TurnBudget, litellm_kwargs, usage_of
from data_access.config import Settings
from data_access.contracts import TraceStep

logger = logging.getLogger(__name__)

JSON_RE = re.compile(r"\{.*\}", re.DOTALL)
JUDGE_CHARS = 300


@dataclass
class LlmSession:
    model_id: str
    settings: Settings
    budget: TurnBudget
    record: Callable[[TraceStep], None]

    def _complete(self, name: str, messages: list[dict[str, Any]], **extra: Any) -> Any:
        import litellm

        watch = Stopwatch()
        response = litellm.completion(model=self.model_id, messages=messages,
                                      **litellm_kwargs(self.model_id, self.settings), **extra)  # fmt: skip
        usage = usage_of(response, self.model_id)
        self.budget.add(usage)
        content = response.choices[0].message.content or ""
        self.record(TraceStep(step=0, kind="llm", name=name, model=self.model_id,
                              observation=content[:500], duration_ms=watch.ms,
                              tokens=usage.tokens, cost_usd=usage.cost_usd))  # fmt: skip
        return response

    def plan(self, question: str, schemas: list[dict[str, Any]], contract_type: str | None,
             titles: dict[int, str]) -> list[ToolCall]:  # fmt: skip
        system = prompts.PLANNER_SYSTEM.format(
            contract_type=contract_type or "provide",
            titles=", ".join(f"제{n}조 {t}" if n > 0 else t for n, t in titles.items()))  # fmt: skip
        response = self._complete("planning", [{"role": "system", "content": system},
                                               {"role": "user", "content": question}],
                                  tools=schemas, tool_choice="auto")  # fmt: skip
        calls = []
        for i, tc in enumerate(response.choices[0].message.tool_calls or [], 1):
            try:
                arguments = json.loads(tc.function.arguments or "{}")
            except json.JSONDecodeError:
                arguments = {"_unparsed": tc.function.arguments}
            calls.append(ToolCall(tc.function.name, arguments if isinstance(arguments, dict) else {},
                                  tc.id or f"call_{i}"))  # fmt: skip
        return calls

    def judge(self, query: str, hits: list[Hit]) -> list[int]:
        """Article numbers the model keeps; on an unreadable reply, the top five by score."""
        fallback = [h.article.article_no for h in hits[:5]]
        if self.budget.exceeded:
            return fallback
        listing = [{"article_no": h.article.article_no, "title": h.article.title,
                    "text": h.article.body[:JUDGE_CHARS]} for h in hits]  # fmt: skip
        response = self._complete("relevance_filter", [
            {"role": "system", "content": prompts.JUDGE_SYSTEM},
            {"role": "user", "content": prompts.evidence_message(
                query, json.dumps(listing, ensure_ascii=False))}])  # fmt: skip
        match = JSON_RE.search(response.choices[0].message.content or "")
        try:
            keep = json.loads(match.group(0))["keep"] if match else None
            valid = {h.article.article_no for h in hits}
            chosen = [int(n) for n in keep if int(n) in valid] if isinstance(keep, list) else []
        except (ValueError, KeyError, TypeError):
            chosen = []
        return chosen[:5] or fallback

    def synthesize(self, question: str, evidence_json: str) -> str:
        response = self._complete("synthesis", [
            {"role": "system", "content": prompts.SYNTHESIS_SYSTEM},
            {"role": "user", "content": prompts.evidence_message(question, evidence_json)}])  # fmt: skip
        return str(response.choices[0].message.content or "").strip()
