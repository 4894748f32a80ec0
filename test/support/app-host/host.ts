// A minimal MCP Apps host for the browser (bundled by ../app-host.ts): it renders an app's HTML in a
// sandboxed iframe and speaks the io.modelcontextprotocol/ui postMessage protocol with it through
// the extension's own AppBridge (@modelcontextprotocol/ext-apps), as Claude, ChatGPT or VS Code do:
// answers ui/initialize, sends the tool's input and result once the app is initialized, and
// forwards the app's tools/call to the test (window.hostCallTool, exposed by Playwright), which
// calls the real server with a real MCP client.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

interface HostWindow {
  hostCallTool(params: unknown): Promise<unknown>;
  hostLog: string[];
  startHost(opts: { html: string; toolInput: Record<string, unknown>; toolResult: unknown }): Promise<void>;
}

const w = window as unknown as HostWindow;
w.hostLog = [];

w.startHost = async ({ html, toolInput, toolResult }) => {
  const iframe = document.createElement("iframe");
  iframe.id = "app";
  iframe.setAttribute("sandbox", "allow-scripts"); // an opaque origin, as hosts render apps
  iframe.style.cssText = "width:720px;height:520px;border:1px solid #ccc";
  document.body.append(iframe);
  const bridge = new AppBridge(null, { name: "mailbox-mcp test host", version: "0" }, { serverTools: {} });
  bridge.oncalltool = async (params) => {
    w.hostLog.push(`tools/call ${(params as { name: string }).name}`);
    return (await w.hostCallTool(params)) as never;
  };
  bridge.oninitialized = () => {
    w.hostLog.push("initialized");
    void bridge.sendToolInput({ arguments: toolInput }).then(() => bridge.sendToolResult(toolResult as never));
  };
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  iframe.srcdoc = html;
};
