package io.streamledger.local.server;

import io.streamledger.local.spi.ApiException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import javax.annotation.Nullable;

/**
 * Content codings of the HTTP front (the local stack of CS01–CS09): gzip/deflate request bodies
 * ({@code Content-Encoding}) and gzip responses for clients whose {@code Accept-Encoding} allows
 * it.
 */
final class HttpEncoding {
    /**
     * Responses smaller than this go out as they are: compressing them costs more than it saves.
     */
    static final int MIN_GZIP_BYTES = 1024;

    /** A decompressed request may not exceed DynamoDB's 16 MB request limit (bounds zip bombs). */
    static final int MAX_REQUEST_BYTES = 16 * 1024 * 1024;

    private HttpEncoding() {}

    /** The request body after undoing its Content-Encoding. */
    static byte[] decodeRequest(@Nullable String contentEncoding, byte[] raw) {
        if (contentEncoding == null || raw.length == 0) {
            return raw;
        }
        byte[] body = raw;
        // codings apply in the order listed; undo them last to first
        String[] codings = contentEncoding.split(",");
        for (int i = codings.length - 1; i >= 0; i--) {
            String coding = codings[i].trim().toLowerCase(Locale.ROOT);
            body =
                    switch (coding) {
                        case "", "identity" -> body;
                        case "gzip", "x-gzip" -> gunzip(body);
                        case "deflate" -> deflate(body);
                        default ->
                                throw new ApiException(
                                        "SerializationException",
                                        400,
                                        "Unsupported Content-Encoding: " + coding);
                    };
        }
        return body;
    }

    /** zlib-wrapped deflate as the RFC says, or raw deflate as some clients send it. */
    private static byte[] deflate(byte[] body) {
        try {
            return readBounded(new InflaterInputStream(new ByteArrayInputStream(body)));
        } catch (IOException zlibFailed) {
            try {
                return readBounded(
                        new InflaterInputStream(
                                new ByteArrayInputStream(body), new Inflater(true)));
            } catch (IOException e) {
                throw undecodable("deflate", e);
            }
        }
    }

    private static byte[] gunzip(byte[] body) {
        try {
            return readBounded(new GZIPInputStream(new ByteArrayInputStream(body)));
        } catch (IOException e) {
            throw undecodable("gzip", e);
        }
    }

    private static byte[] readBounded(InputStream in) throws IOException {
        try (in) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) > 0) {
                out.write(buf, 0, n);
                if (out.size() > MAX_REQUEST_BYTES) {
                    throw new ApiException(
                            "RequestEntityTooLarge",
                            413,
                            "Request must be smaller than " + MAX_REQUEST_BYTES + " bytes");
                }
            }
            return out.toByteArray();
        }
    }

    private static ApiException undecodable(String coding, IOException e) {
        return new ApiException(
                "SerializationException",
                400,
                "Could not decode the " + coding + " request body: " + e.getMessage());
    }

    /** "gzip" when the client accepts it and the body is worth compressing, else null. */
    static @Nullable String responseEncoding(@Nullable String acceptEncoding, int length) {
        if (acceptEncoding == null || length < MIN_GZIP_BYTES) {
            return null;
        }
        for (String part : acceptEncoding.split(",")) {
            String[] p = part.trim().split(";");
            String coding = p[0].trim().toLowerCase(Locale.ROOT);
            if (!coding.equals("gzip") && !coding.equals("x-gzip")) {
                continue;
            }
            for (int i = 1; i < p.length; i++) {
                String param = p[i].trim().replace(" ", "");
                if (param.equals("q=0") || param.matches("q=0\\.0*")) {
                    return null;
                }
            }
            return "gzip";
        }
        return null;
    }

    static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 4 + 64);
        try (GZIPOutputStream gz = new GZIPOutputStream(out, 8192)) {
            gz.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
