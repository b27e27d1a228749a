// The end window's standing in Malay, from the catalogue the site serves (djangojs.po): the
// catalogue is in place before finish.js is first imported, as /jsi18n/ is on the page.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const PO = new URL("../../game/locale/ms/LC_MESSAGES/djangojs.po", import.meta.url);

/** msgid → msgstr of a .po file's singular entries, their continued lines joined. */
function catalogue(text) {
  const entries = {};
  const pattern = /^msgid ((?:".*"\n)+)msgstr ((?:".*"\n)+)/gm;
  const joined = (lines) => lines.trim().split("\n").map((line) => JSON.parse(line)).join("");
  for (const [, id, str] of text.matchAll(pattern)) entries[joined(id)] = joined(str);
  return entries;
}

const malay = catalogue(readFileSync(PO, "utf8"));
globalThis.gettext = (text) => malay[text] || text;
const { standingText } = await import("../../static/windows/finish.js");

test("a winner with nobody after them is one of today's winners, in Malay", () => {
  const second = { won: true, daily: { cleared: 25, percentile: 0, compared: 1 } };
  assert.equal(standingText(second), "Antara 2 pemenang hari ini setakat ini");
});

test("a loss with nobody after it is told what it cleared, in Malay", () => {
  const last = { won: false, daily: { cleared: 7, percentile: 0, compared: 3 } };
  assert.equal(standingText(last), "Dikosongkan 7 daripada 25");
});

test("a winner with some after them still hears the share, in Malay", () => {
  const result = { won: true, daily: { cleared: 25, percentile: 62, compared: 8 } };
  assert.equal(standingText(result), "Lebih pantas daripada 62\u00a0% pemenang hari ini");
});
