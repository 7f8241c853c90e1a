/**
 * The web inspector's stylesheet (inline, allowed by its hash in the page's CSP).
 */
export const INSPECTOR_STYLE = `
:root { color-scheme: light; --fg: #1b1f24; --muted: #59636e; --line: #d1d9e0; --bg: #f6f8fa; --accent: #0b5cad;
  --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e; --replay: #8250df; --wait: #bf8700; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: #fff; }
header { display: flex; gap: 16px; align-items: center; padding: 10px 20px; border-bottom: 1px solid var(--line); background: var(--bg); }
header h1 { font-size: 16px; margin: 0; }
header .runtime { color: var(--muted); }
header label { margin-left: auto; }
main { display: grid; grid-template-columns: minmax(620px, 48%) 1fr; min-height: calc(100vh - 50px); }
section { padding: 14px 20px; min-width: 0; }
#detail:focus { outline: none; }
#list-panel { border-right: 1px solid var(--line); overflow: auto; }
h2 { font-size: 15px; margin: 0 0 8px; }
h3 { font-size: 13px; margin: 18px 0 6px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; color: var(--muted); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
#list td, #list th { white-space: nowrap; padding: 4px 6px; }
#list td.what { white-space: normal; }
#list .summary { max-width: 330px; font-size: 12px; line-height: 1.35; color: var(--muted); overflow-wrap: anywhere; display: -webkit-box;
  -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; }
tr[aria-current="true"] { background: #ddf4ff; }
a { color: var(--accent); }
code, pre, .mono { font: 12px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { margin: 0; padding: 8px 10px; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; overflow: auto;
  white-space: pre-wrap; word-break: break-word; max-height: 320px; }
.badge { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 12px; font-weight: 600; border: 1px solid currentColor; }
.s-completed, .c-applied { color: var(--ok); } .s-paused, .c-pending, .c-approved { color: var(--warn); }
.s-error, .s-rejected, .c-error, .c-interrupted { color: var(--bad); } .s-running { color: var(--accent); }
.s-rolled_back, .c-reverted { color: var(--muted); } .c-replayed { color: var(--replay); }
.meta { color: var(--muted); margin: 0 0 10px; }
.actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 10px 0; }
button { font: inherit; padding: 5px 12px; border-radius: 6px; border: 1px solid var(--line); background: #fff; cursor: pointer; }
button.approve { background: var(--ok); color: #fff; border-color: var(--ok); }
button.reject, button.rollback { color: var(--bad); border-color: var(--bad); }
button:disabled { opacity: .5; cursor: not-allowed; }
button:focus-visible, a:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
input[type=text] { font: inherit; padding: 4px 8px; border: 1px solid var(--line); border-radius: 6px; min-width: 220px; }
#status-line { min-height: 1.4em; color: var(--muted); }
#status-line.bad { color: var(--bad); }
.empty { color: var(--muted); }
.timeline { position: relative; border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px 4px; background: #fff; }
.tl-row { display: grid; grid-template-columns: 190px 1fr; align-items: center; height: 24px; }
.tl-label { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; font-size: 12px; padding-right: 8px; }
.tl-track { position: relative; height: 100%; border-left: 1px solid var(--line); }
.bar { position: absolute; top: 5px; height: 14px; min-width: 3px; border-radius: 3px; }
.bar.pass { background: #b6d3f2; border: 1px solid #5b8fc9; }
.bar.applied { background: var(--ok); } .bar.error, .bar.interrupted { background: var(--bad); }
.bar.reverted { background: #8c959f; } .bar.pending, .bar.approved { background: var(--warn); }
.bar.wait { background: repeating-linear-gradient(45deg, #fff3c4, #fff3c4 4px, #f5d77a 4px, #f5d77a 8px); border: 1px solid var(--wait); }
.mark { position: absolute; top: 6px; width: 10px; height: 10px; margin-left: -5px; transform: rotate(45deg); background: var(--replay); }
.mark.revert { background: #57606a; }
.tl-break { position: absolute; top: 0; height: 100%; z-index: 1; pointer-events: none; box-sizing: border-box;
  border-left: 3px double #8c959f; border-right: 3px double #8c959f;
  background: repeating-linear-gradient(-60deg, rgba(255,255,255,.85) 0 4px, rgba(140,149,159,.45) 4px 5px); }
.tick.break { font-style: italic; color: #57606a; }
.tl-axis { display: grid; grid-template-columns: 190px 1fr; font-size: 11px; color: var(--muted); margin-top: 4px; }
.tl-axis .ticks { position: relative; height: 16px; border-top: 1px solid var(--line); }
.tick { position: absolute; transform: translateX(-50%); white-space: nowrap; }
.legend { display: flex; flex-wrap: wrap; gap: 14px; font-size: 12px; color: var(--muted); margin: 6px 0 0; }
.legend span::before { content: ""; display: inline-block; width: 12px; height: 10px; margin-right: 4px; vertical-align: -1px; border-radius: 2px; background: var(--sw); }
.sw-pass { --sw: #b6d3f2; } .sw-exec { --sw: #1a7f37; } .sw-wait { --sw: #f5d77a; } .sw-replay { --sw: #8250df; } .sw-fail { --sw: #cf222e; }
.sw-break { --sw: repeating-linear-gradient(-60deg, #fff 0 3px, #8c959f 3px 4px); }
ol.code { margin: 0; padding: 8px 0; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; list-style: none;
  counter-reset: line; overflow: auto; max-height: 360px; }
ol.code li { counter-increment: line; white-space: pre; padding: 0 10px 0 0; }
ol.code li::before { content: counter(line); display: inline-block; width: 3.2em; padding-right: 10px; margin-right: 10px; text-align: right;
  color: var(--muted); border-right: 1px solid var(--line); }
td pre { max-height: 160px; }
tr.call-head td { border-bottom: none; padding-top: 8px; }
.io { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; }
.io-label { font-size: 11px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.tick.start { transform: none; } .tick.end { transform: translateX(-100%); }
fieldset.decisions { border: 1px solid var(--line); border-radius: 6px; margin: 0; padding: 6px 10px; flex-basis: 100%; }
fieldset.decisions legend { font-size: 12px; color: var(--muted); padding: 0 4px; }
.decision { display: flex; gap: 12px; align-items: center; margin: 4px 0; flex-wrap: wrap; }
.decision { gap: 4px 16px; margin: 6px 0; }
.decision code { flex-basis: 100%; min-width: 0; overflow-wrap: anywhere; }
.decision label { white-space: nowrap; }
.args-label { display: flex; flex-direction: column; gap: 2px; flex-basis: 100%; }
textarea.args-edit { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; padding: 4px 8px; border: 1px solid var(--line); border-radius: 6px; width: 100%; max-width: 640px; box-sizing: border-box; }
`;
