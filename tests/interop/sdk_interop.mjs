// Interoperability with the official TypeScript MCP SDK client: connect over Streamable HTTP
// and over stdio, list the tools, remember, recall what was remembered, forget it, recall again
// and see it gone. Usage: node sdk_interop.mjs <http url of /mcp> <memorygraph binary>
// <data dir of the running instance> <fresh data dir>
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [endpoint, binary, ownedDir, freshDir] = process.argv.slice(2);

function check(condition, message) {
    if (!condition)
        throw new Error(message);
}

function textOf(result) {
    return (result.content || []).map((c) => c.text || '').join('\n');
}

async function scenario(label, transport) {
    const client = new Client({ name: 'memorygraph-interop', version: '1.0.0' });
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    for (const name of ['remember', 'recall', 'get', 'forget'])
        check(tools.includes(name), `${label}: tools/list lacks ${name}: ${tools}`);

    const marker = `Okonkwo-${label}-${Date.now()}`;
    const remembered = await client.callTool({
        name: 'remember',
        arguments: { text: `The lighthouse keeper is named ${marker}.` },
    });
    check(!remembered.isError, `${label}: remember failed: ${textOf(remembered)}`);
    const uri = remembered.structuredContent.nodes[0].uri;
    check(uri.startsWith('memorygraph://'), `${label}: no URI: ${JSON.stringify(remembered)}`);

    // remember does not wait for the embedder: ask again after a moment, as an agent would.
    let recalled;
    for (let attempt = 0; attempt < 50; ++attempt) {
        recalled = await client.callTool({
            name: 'recall',
            arguments: { query: 'what is the lighthouse keeper named' },
        });
        if (textOf(recalled).includes(marker))
            break;
        await new Promise((resolve) => setTimeout(resolve, 200));
    }
    check(textOf(recalled).includes(marker), `${label}: recall missed it: ${textOf(recalled)}`);

    const resources = await client.listResources();
    check(resources.resources.some((r) => r.uri === uri), `${label}: resources/list lacks ${uri}`);
    const read = await client.readResource({ uri });
    check(read.contents[0].text.includes(marker), `${label}: resources/read: ${JSON.stringify(read)}`);

    const forgotten = await client.callTool({ name: 'forget', arguments: { uri, reason: 'interop' } });
    check(!forgotten.isError, `${label}: forget failed: ${textOf(forgotten)}`);
    const again = await client.callTool({
        name: 'recall',
        arguments: { query: 'what is the lighthouse keeper named' },
    });
    check(!textOf(again).includes(marker), `${label}: still recalled after forget: ${textOf(again)}`);

    const bad = await client.callTool({ name: 'recall', arguments: {} });
    check(bad.isError, `${label}: a recall without query was not an error`);
    await client.close();
    console.log(`ok ${label}`);
}

await scenario('http', new StreamableHTTPClientTransport(new URL(endpoint)));
// stdio forwarding to the instance that owns the folder, and stdio serving a folder itself.
await scenario('stdio-forward', new StdioClientTransport({
    command: binary, args: ['mcp', '--data-dir', ownedDir, '--port', '1'], stderr: 'inherit' }));
await scenario('stdio-local', new StdioClientTransport({
    command: binary, args: ['mcp', '--data-dir', freshDir, '--port', '1'], stderr: 'inherit' }));
console.log('3 passed, 0 failed');
