package io.streamledger.local.it;

import static io.streamledger.local.it.Tables.key;
import static io.streamledger.local.it.Tables.s;
import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.ClientConfiguration;
import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.client.builder.AwsClientBuilder.EndpointConfiguration;
import com.amazonaws.services.dynamodbv2.AmazonDynamoDB;
import com.amazonaws.services.dynamodbv2.AmazonDynamoDBClientBuilder;
import com.amazonaws.services.dynamodbv2.model.ScanRequest;
import io.streamledger.local.LocalDynamoDbExtension;
import io.streamledger.local.LocalEndpoint;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The HTTP layer as DynamoDB serves it: compressed request and response bodies, x-amz-crc32, CORS
 * preflight, the {@code GET /} health answer, DescribeEndpoints, and the framework errors
 * (UnknownOperation, Serialization, MissingAuthenticationToken, IncompleteSignature).
 */
class HttpLayerITCase {
    private static final String AUTH =
            "AWS4-HMAC-SHA256 Credential=AKIDLOCAL/20260101/us-east-1/dynamodb/aws4_request,"
                    + " SignedHeaders=host;x-amz-date;x-amz-target, Signature=abc";

    @RegisterExtension static final LocalDynamoDbExtension DDB = new LocalDynamoDbExtension();

    @RegisterExtension
    static final LocalDynamoDbExtension STRICT =
            new LocalDynamoDbExtension(b -> b.requireAuthentication(true));

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static DynamoDbClient ddb;
    private static String table;

    @BeforeAll
    static void setUp() {
        ddb = Clients.dynamo(DDB.endpoint().endpoint());
        table = Tables.pkSk(ddb, "Http");
        for (int i = 0; i < 20; i++) {
            String sk = Integer.toString(i);
            ddb.putItem(
                    b ->
                            b.tableName(table)
                                    .item(
                                            Map.of(
                                                    "PK",
                                                    s("big"),
                                                    "SK",
                                                    s(sk),
                                                    "pad",
                                                    s("x".repeat(200)))));
        }
    }

    @AfterAll
    static void close() {
        ddb.close();
    }

    private static HttpResponse<byte[]> post(
            LocalEndpoint endpoint, String target, byte[] body, String... headers)
            throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(endpoint.endpoint())
                        .header("Content-Type", "application/x-amz-json-1.0")
                        .header("X-Amz-Target", target)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String text(HttpResponse<byte[]> r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    private static String putJson(String pk) {
        return "{\"TableName\":\""
                + table
                + "\",\"Item\":{\"PK\":{\"S\":\""
                + pk
                + "\"},\"SK\":{\"S\":\"1\"}}}";
    }

    private static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(b);
        }
        return out.toByteArray();
    }

    private static byte[] deflate(byte[] b, boolean raw) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DeflaterOutputStream d =
                new DeflaterOutputStream(out, new Deflater(Deflater.DEFAULT_COMPRESSION, raw))) {
            d.write(b);
        }
        return out.toByteArray();
    }

    private static long crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return c.getValue();
    }

    @Test
    void compressedRequestBodiesAreDecoded() throws Exception {
        byte[] json = putJson("gz").getBytes(StandardCharsets.UTF_8);
        assertThat(
                        post(
                                        DDB.endpoint(),
                                        "DynamoDB_20120810.PutItem",
                                        gzip(json),
                                        "Content-Encoding",
                                        "gzip")
                                .statusCode())
                .isEqualTo(200);
        json = putJson("zlib").getBytes(StandardCharsets.UTF_8);
        assertThat(
                        post(
                                        DDB.endpoint(),
                                        "DynamoDB_20120810.PutItem",
                                        deflate(json, false),
                                        "Content-Encoding",
                                        "deflate")
                                .statusCode())
                .isEqualTo(200);
        json = putJson("raw-deflate").getBytes(StandardCharsets.UTF_8);
        assertThat(
                        post(
                                        DDB.endpoint(),
                                        "DynamoDB_20120810.PutItem",
                                        deflate(json, true),
                                        "Content-Encoding",
                                        "deflate")
                                .statusCode())
                .isEqualTo(200);
        for (String pk : new String[] {"gz", "zlib", "raw-deflate"}) {
            assertThat(ddb.getItem(b -> b.tableName(table).key(key(pk, "1"))).hasItem())
                    .as(pk)
                    .isTrue();
        }
        HttpResponse<byte[]> corrupt =
                post(
                        DDB.endpoint(),
                        "DynamoDB_20120810.PutItem",
                        "not gzip".getBytes(StandardCharsets.UTF_8),
                        "Content-Encoding",
                        "gzip");
        assertThat(corrupt.statusCode()).isEqualTo(400);
        assertThat(text(corrupt)).contains("SerializationException");
    }

    @Test
    void responsesAreGzippedWhenAcceptedAndCarryTheCrcOfTheWireBytes() throws Exception {
        byte[] scan = ("{\"TableName\":\"" + table + "\"}").getBytes(StandardCharsets.UTF_8);
        HttpResponse<byte[]> zipped =
                post(DDB.endpoint(), "DynamoDB_20120810.Scan", scan, "Accept-Encoding", "gzip");
        assertThat(zipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(zipped.headers().firstValue("x-amz-crc32"))
                .hasValue(Long.toString(crc(zipped.body())));
        String json =
                new String(
                        new GZIPInputStream(new ByteArrayInputStream(zipped.body())).readAllBytes(),
                        StandardCharsets.UTF_8);
        assertThat(json).contains("\"Count\":");

        HttpResponse<byte[]> plain = post(DDB.endpoint(), "DynamoDB_20120810.Scan", scan);
        assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(plain.headers().firstValue("x-amz-crc32"))
                .hasValue(Long.toString(crc(plain.body())));
        HttpResponse<byte[]> refused =
                post(DDB.endpoint(), "DynamoDB_20120810.Scan", scan, "Accept-Encoding", "gzip;q=0");
        assertThat(refused.headers().firstValue("Content-Encoding")).isEmpty();
    }

    @Test
    void sdkV1WithGzipVerifiesTheCrc() {
        AmazonDynamoDB v1 =
                AmazonDynamoDBClientBuilder.standard()
                        .withEndpointConfiguration(
                                new EndpointConfiguration(
                                        DDB.endpoint().endpoint().toString(), "us-east-1"))
                        .withCredentials(
                                new AWSStaticCredentialsProvider(
                                        new BasicAWSCredentials("AKIDLOCAL", "secret")))
                        .withClientConfiguration(
                                new ClientConfiguration().withGzip(true).withMaxErrorRetry(0))
                        .build();
        try {
            assertThat(v1.scan(new ScanRequest(table)).getCount()).isGreaterThanOrEqualTo(20);
        } finally {
            v1.shutdown();
        }
    }

    @Test
    void corsPreflightAndCorsHeaders() throws Exception {
        HttpResponse<byte[]> pre =
                HTTP.send(
                        HttpRequest.newBuilder(DDB.endpoint().endpoint())
                                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                                .header("Origin", "http://localhost:3000")
                                .header("Access-Control-Request-Method", "POST")
                                .header(
                                        "Access-Control-Request-Headers",
                                        "content-type,x-amz-target,authorization")
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
        assertThat(pre.statusCode()).isEqualTo(200);
        assertThat(pre.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
        assertThat(pre.headers().firstValue("Access-Control-Allow-Methods").orElseThrow())
                .contains("POST");
        assertThat(pre.headers().firstValue("Access-Control-Allow-Headers"))
                .hasValue("content-type,x-amz-target,authorization");
        assertThat(pre.headers().firstValue("Access-Control-Max-Age")).isPresent();
        HttpResponse<byte[]> list =
                post(
                        DDB.endpoint(),
                        "DynamoDB_20120810.ListTables",
                        "{}".getBytes(StandardCharsets.UTF_8),
                        "Origin",
                        "http://localhost:3000");
        assertThat(list.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
        assertThat(list.headers().firstValue("Access-Control-Expose-Headers").orElseThrow())
                .contains("x-amz-crc32");
    }

    @Test
    void healthCheckNeedsNoAuthentication() throws Exception {
        for (LocalEndpoint e : new LocalEndpoint[] {DDB.endpoint(), STRICT.endpoint()}) {
            HttpResponse<String> r =
                    HTTP.send(
                            HttpRequest.newBuilder(e.endpoint()).GET().build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("healthy: dynamodb.us-east-1.amazonaws.com ");
        }
    }

    @Test
    void describeEndpointsNamesThisEndpoint() {
        var endpoints = ddb.describeEndpoints(b -> {}).endpoints();
        URI uri = DDB.endpoint().endpoint();
        assertThat(endpoints).hasSize(1);
        assertThat(endpoints.get(0).address()).isEqualTo(uri.getHost() + ":" + uri.getPort());
        assertThat(endpoints.get(0).cachePeriodInMinutes()).isEqualTo(1440L);
    }

    @Test
    void frameworkErrors() throws Exception {
        HttpResponse<byte[]> unknown =
                post(
                        DDB.endpoint(),
                        "DynamoDB_20120810.Frobnicate",
                        "{}".getBytes(StandardCharsets.UTF_8));
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(text(unknown))
                .contains("\"__type\":\"com.amazon.coral.service#UnknownOperationException\"");
        HttpResponse<byte[]> noTarget =
                post(DDB.endpoint(), "", "{}".getBytes(StandardCharsets.UTF_8));
        assertThat(text(noTarget)).contains("UnknownOperationException");

        HttpResponse<byte[]> malformed =
                post(
                        DDB.endpoint(),
                        "DynamoDB_20120810.GetItem",
                        "{\"TableName\":".getBytes(StandardCharsets.UTF_8));
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(text(malformed))
                .contains("\"__type\":\"com.amazon.coral.service#SerializationException\"");

        String badBinary =
                "{\"TableName\":\""
                        + table
                        + "\",\"Item\":{\"PK\":{\"S\":\"b\"},\"SK\":{\"S\":\"1\"},\"bin\":{\"B\":\"abcde\"}}}";
        HttpResponse<byte[]> base64 =
                post(
                        DDB.endpoint(),
                        "DynamoDB_20120810.PutItem",
                        badBinary.getBytes(StandardCharsets.UTF_8));
        assertThat(base64.statusCode()).isEqualTo(400);
        assertThat(text(base64))
                .contains("SerializationException")
                .contains("multiple of 4 bytes but found: 5");

        HttpResponse<byte[]> validation =
                post(
                        DDB.endpoint(),
                        "DynamoDB_20120810.GetItem",
                        "{}".getBytes(StandardCharsets.UTF_8));
        assertThat(text(validation))
                .contains("\"__type\":\"com.amazon.coral.validate#ValidationException\"");
    }

    @Test
    void missingOrIncompleteAuthenticationWhenRequired() throws Exception {
        byte[] list = "{}".getBytes(StandardCharsets.UTF_8);
        HttpResponse<byte[]> missing =
                post(STRICT.endpoint(), "DynamoDB_20120810.ListTables", list);
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(text(missing))
                .contains(
                        "\"__type\":\"com.amazon.coral.service#MissingAuthenticationTokenException\"")
                .contains("Request is missing Authentication Token");
        HttpResponse<byte[]> incomplete =
                post(
                        STRICT.endpoint(),
                        "DynamoDB_20120810.ListTables",
                        list,
                        "Authorization",
                        "Bearer x");
        assertThat(text(incomplete))
                .contains("IncompleteSignatureException")
                .contains("Authorization header requires 'Credential' parameter.");
        assertThat(
                        post(
                                        STRICT.endpoint(),
                                        "DynamoDB_20120810.ListTables",
                                        list,
                                        "Authorization",
                                        AUTH)
                                .statusCode())
                .isEqualTo(200);
        try (DynamoDbClient signed = Clients.dynamo(STRICT.endpoint().endpoint())) {
            assertThat(signed.listTables().tableNames()).isEmpty();
            assertThat(signed.describeEndpoints(b -> {}).endpoints()).hasSize(1);
        }
        // the default endpoint accepts unsigned requests (local convenience)
        assertThat(post(DDB.endpoint(), "DynamoDB_20120810.ListTables", list).statusCode())
                .isEqualTo(200);
    }
}
