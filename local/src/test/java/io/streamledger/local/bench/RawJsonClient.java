package io.streamledger.local.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * A minimal keep-alive HTTP/1.1 client for the benchmark: sends prebuilt AWS JSON 1.0 requests and
 * reads responses by Content-Length, costing far less CPU than the SDK, so the figures measure the
 * endpoint rather than the client.
 */
final class RawJsonClient implements AutoCloseable {
    private static final String AUTH =
            "AWS4-HMAC-SHA256 Credential=AKIDBENCH/20261130/us-east-1/dynamodb/aws4_request,"
                    + " SignedHeaders=host;x-amz-date;x-amz-target, Signature=00";

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final String host;

    RawJsonClient(URI endpoint) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(endpoint.getHost(), endpoint.getPort()));
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
        host = endpoint.getHost() + ":" + endpoint.getPort();
    }

    /** Sends one request; returns the HTTP status. */
    int call(String target, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        String head =
                "POST / HTTP/1.1\r\nHost: "
                        + host
                        + "\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810."
                        + target
                        + "\r\nAuthorization: "
                        + AUTH
                        + "\r\nContent-Length: "
                        + body.length
                        + "\r\n\r\n";
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        byte[] req = new byte[h.length + body.length];
        System.arraycopy(h, 0, req, 0, h.length);
        System.arraycopy(body, 0, req, h.length, body.length);
        out.write(req);
        out.flush();
        return readResponse();
    }

    private int readResponse() throws IOException {
        String status = readLine();
        int code = Integer.parseInt(status.substring(9, 12));
        int length = 0;
        String line;
        while (!(line = readLine()).isEmpty()) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase("Content-Length")) {
                length = Integer.parseInt(line.substring(colon + 1).trim());
            }
        }
        long skipped = 0;
        while (skipped < length) {
            long n = in.skip(length - skipped);
            if (n <= 0) {
                if (in.read() < 0) {
                    throw new IOException("connection closed");
                }
                n = 1;
            }
            skipped += n;
        }
        return code;
    }

    private String readLine() throws IOException {
        StringBuilder sb = new StringBuilder(64);
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                int len = sb.length();
                return len > 0 && sb.charAt(len - 1) == '\r'
                        ? sb.substring(0, len - 1)
                        : sb.toString();
            }
            sb.append((char) c);
        }
        throw new IOException("connection closed");
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
