// The review card (docs/design.md §3 "Send policy"; docs/tools.md "The review card"): an MCP App
// (io.modelcontextprotocol/ui) that a host renders in a sandboxed iframe beside a send_email call.
// One self-contained HTML document, no network and no external file. It speaks the extension's
// JSON-RPC over postMessage with its host: ui/initialize, then ui/notifications/initialized; it
// listens for ui/notifications/tool-result; for a message held for review it shows what would go
// out and two buttons, which call the app-only tool confirm_send through the host (tools/call).
// Everything shown is set with textContent, never parsed as HTML: the subject, names and first
// lines may come from a stranger's message.
export const REVIEW_CARD_APP = { name: "mailbox-mcp review card", version: "1" };

/** The extension revision this card speaks (the ext-apps SDK's LATEST_PROTOCOL_VERSION when written). */
export const APPS_PROTOCOL_VERSION = "2026-01-26";

const CSS = `
:root{color-scheme:light dark;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
body{margin:0;padding:12px}
.card{border:1px solid #d0d7de;border-radius:8px;padding:12px 14px;max-width:44rem}
h1{font-size:15px;margin:0 0 8px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 10px;margin:0 0 8px}
dt{color:#57606a}dd{margin:0;overflow-wrap:anywhere}
.new{font-weight:600;color:#9a6700}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:rgba(127,127,127,.08);padding:8px;border-radius:6px;margin:8px 0;max-height:12rem;overflow:auto}
.actions{display:flex;gap:8px;margin-top:10px}
button{font:inherit;padding:6px 14px;border-radius:6px;border:1px solid #8c959f;background:transparent;color:inherit;cursor:pointer}
button.send{background:#1f883d;border-color:#1f883d;color:#fff}
button:disabled{opacity:.5;cursor:default}
#status{margin-top:8px}
`;

const SCRIPT = `(function(){
"use strict";
var nextId=1,pending={},host=window.parent,review=null;
function post(m){host.postMessage(m,"*")}
function request(method,params){var id=nextId++;post({jsonrpc:"2.0",id:id,method:method,params:params});
 return new Promise(function(ok,fail){pending[id]={ok:ok,fail:fail}})}
function el(tag,text,cls){var e=document.createElement(tag);if(text!=null)e.textContent=String(text);if(cls)e.className=cls;return e}
function $(id){return document.getElementById(id)}
function size(n){return n>=1048576?(n/1048576).toFixed(1)+" MB":Math.max(1,Math.ceil(n/1024))+" KB"}
function resized(){var b=document.body;post({jsonrpc:"2.0",method:"ui/notifications/size-changed",params:{width:b.scrollWidth,height:b.scrollHeight}})}
function textOf(r){return (r&&r.content||[]).filter(function(c){return c.type==="text"}).map(function(c){return c.text}).join("\\n")}
function row(dl,name,list,fresh){if(!list||!list.length)return;dl.append(el("dt",name));var dd=el("dd");
 list.forEach(function(a,i){if(i)dd.append(", ");dd.append(a);if(fresh.indexOf(a.toLowerCase())>=0)dd.append(el("span"," (new: never written to before)","new"))});dl.append(dd)}
function show(result){
 var s=result&&result.structuredContent||{},meta=result&&result._meta||{};
 review=meta["mailbox-mcp/review"]||null;
 var card=$("card");card.textContent="";
 if(result&&result.isError){card.append(el("h1","Not sent"),el("p",textOf(result)));return resized()}
 if(s.status==="held_as_draft"&&review&&review.token){
  var m=review.message||{},fresh=(m.new_recipients||[]).map(function(a){return String(a).toLowerCase()});
  card.append(el("h1","Send this email?"));
  var dl=el("dl");row(dl,"From",[m.from],[]);row(dl,"To",m.to,fresh);row(dl,"Cc",m.cc,fresh);row(dl,"Bcc",m.bcc,fresh);
  dl.append(el("dt","Subject"),el("dd",m.subject||"(no subject)"));
  if(m.attachments&&m.attachments.length){dl.append(el("dt","Attachments"),el("dd",m.attachments.map(function(a){return a.filename+" ("+size(a.size)+")"}).join(", ")))}
  card.append(dl,el("pre",m.preview||"(no text)"));
  var acts=el("div",null,"actions"),send=el("button","Send","send"),keep=el("button","Keep as draft","keep");
  send.id="send";keep.id="keep";send.onclick=function(){decide("send")};keep.onclick=function(){decide("keep_as_draft")};
  acts.append(send,keep);card.append(acts,el("p","Saved in "+s.draft.folder+" until you choose.","hint"));
 }else{
  card.append(el("h1",s.status==="sent"?"Sent":s.status==="dry_run"?"Dry run: nothing sent":"Not sent"),el("p",textOf(result)));
 }
 card.append(el("div",null,null));card.lastChild.id="status";resized();
}
function decide(decision){
 var buttons=document.querySelectorAll("button");for(var i=0;i<buttons.length;i++)buttons[i].disabled=true;
 $("status").textContent=decision==="send"?"Sending…":"Keeping it as a draft…";
 request("tools/call",{name:"confirm_send",arguments:{review:review.token,decision:decision}}).then(function(r){
  $("status").textContent=textOf(r)||(r.isError?"Failed.":"Done.");$("status").dataset.outcome=r.isError?"error":(r.structuredContent&&r.structuredContent.status)||"done";resized();
 },function(e){$("status").textContent="The host could not run it: "+(e&&e.message||e);$("status").dataset.outcome="error";resized()});
}
window.addEventListener("message",function(ev){
 if(ev.source!==host)return;var m=ev.data;if(!m||m.jsonrpc!=="2.0")return;
 if(m.method===undefined&&m.id!==undefined){var p=pending[m.id];if(!p)return;delete pending[m.id];if(m.error)p.fail(m.error);else p.ok(m.result);return}
 if(m.method==="ui/notifications/tool-result")return show(m.params);
 if(m.id!==undefined){post(m.method==="ui/resource-teardown"||m.method==="ping"?{jsonrpc:"2.0",id:m.id,result:{}}:{jsonrpc:"2.0",id:m.id,error:{code:-32601,message:"Method not found"}})}
});
request("ui/initialize",{appInfo:${JSON.stringify(REVIEW_CARD_APP)},appCapabilities:{},protocolVersion:"${APPS_PROTOCOL_VERSION}"}).then(function(){
 post({jsonrpc:"2.0",method:"ui/notifications/initialized",params:{}});
});
})();`;

/** The whole card, as the ui:// resource serves it. */
export const REVIEW_CARD_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Review before sending</title><style>${CSS}</style></head>
<body><div class="card" id="card"><p>Waiting for the message…</p></div><script>${SCRIPT}</script></body></html>`;
