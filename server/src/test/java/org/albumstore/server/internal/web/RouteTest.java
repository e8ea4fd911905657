package org.albumstore.server.internal.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.albumstore.server.internal.web.Route.Resource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RouteTest {

  @ParameterizedTest(name = "{0} -> {1} {2}")
  @CsvSource(
      delimiter = '|',
      nullValues = "NONE",
      value = {
        "/albums               | ALBUMS        | ",
        "/albums/              | ALBUMS        | ",
        "/albums/42            | ALBUM         | 42",
        "/albums/abc-DEF_9     | ALBUM         | abc-DEF_9",
        "/albums/a b           | ALBUM         | a b",
        "/albums/42/           | UNKNOWN       | ",
        "/albums/42/x          | UNKNOWN       | ",
        "/review/like/42       | VOTE          | like,42",
        "/review/dislike/x-1   | VOTE          | dislike,x-1",
        "/review/meh/42        | VOTE          | meh,42",
        "/review/like/         | VOTE          | like,",
        "/review//42           | VOTE          | ,42",
        "/review/42            | REVIEW_COUNTS | 42",
        "/review/like          | REVIEW_COUNTS | like",
        "/review               | UNKNOWN       | ",
        "/review/              | UNKNOWN       | ",
        "/review/like/42/      | UNKNOWN       | ",
        "/review/like/42/extra | UNKNOWN       | ",
        "/health               | HEALTH        | ",
        "/health/live          | LIVENESS      | ",
        "/health/live/         | UNKNOWN       | ",
        "/health/x             | UNKNOWN       | ",
        "/                     | UNKNOWN       | ",
        "/Albums               | UNKNOWN       | ",
        "/albumsX              | UNKNOWN       | ",
        "/a/b/c/d/e/f/g/h/i/j  | UNKNOWN       | ",
      })
  void parsesEveryShapeOfPath(String path, Resource resource, String params) {
    Route r = Route.parse(path);
    assertThat(r.resource()).isEqualTo(resource);
    List<String> expected = params == null ? List.of() : List.of(params.split(",", -1));
    assertThat(r.params()).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource({"''", "/"})
  void emptyPathIsUnknown(String path) {
    assertThat(Route.parse(path).resource()).isEqualTo(Resource.UNKNOWN);
    assertThat(Route.parse(null).resource()).isEqualTo(Resource.UNKNOWN);
  }

  @ParameterizedTest
  @CsvSource({
    "ALBUMS,POST",
    "ALBUM,GET",
    "VOTE,POST",
    "REVIEW_COUNTS,GET",
    "HEALTH,GET",
    "LIVENESS,GET"
  })
  void eachResourceServesOneMethod(Resource resource, String method) {
    assertThat(resource.method()).isEqualTo(method);
  }
}
