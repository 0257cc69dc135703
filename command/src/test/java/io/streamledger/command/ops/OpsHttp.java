package io.streamledger.command.ops;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.command.api.HttpApi;
import io.streamledger.command.api.StrictJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The ops ITCases' HTTP client: one request with an API key, the reply as status + JSON. */
final class OpsHttp {

    record Reply(int status, JsonNode body) {}

    private final HttpClient web =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final int port;

    OpsHttp(int port) {
        this.port = port;
    }

    Reply send(String method, String path, String key, String body) throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(30))
                        .header(HttpApi.HEADER_API_KEY, key)
                        .method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = web.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(r.statusCode(), StrictJson.MAPPER.readTree(r.body()));
    }

    Reply get(String path, String key) throws Exception {
        return send("GET", path, key, null);
    }

    static String code(Reply r) {
        return r.body().path("error").path("code").asText();
    }

    static String message(Reply r) {
        return r.body().path("error").path("message").asText();
    }
}
