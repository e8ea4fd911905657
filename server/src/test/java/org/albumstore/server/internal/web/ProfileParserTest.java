package org.albumstore.server.internal.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.albumstore.common.event.AlbumProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProfileParserTest {
  private static final AlbumProfile PISTOLS =
      new AlbumProfile("Sex Pistols", "Never Mind The Bollocks!", "1977");

  @Test
  void readsTheJsonForm() throws HttpProblem {
    assertThat(
            ProfileParser.parse(
                "{\"artist\":\"Sex Pistols\",\"title\":\"Never Mind The Bollocks!\","
                    + "\"year\":\"1977\"}"))
        .isEqualTo(PISTOLS);
  }

  @Test
  void readsTheOpenApiToStringForm() throws HttpProblem {
    String text =
        "class AlbumsProfile {\n"
            + "    artist: Sex Pistols\n"
            + "    title: Never Mind The Bollocks!\n"
            + "    year: 1977\n"
            + "}";
    assertThat(ProfileParser.parse(text)).isEqualTo(PISTOLS);
  }

  @Test
  void toleratesCrLfTabsBlankLinesAndSurroundingWhitespaceInTheTextForm() throws HttpProblem {
    String text =
        "\r\n  class AlbumsProfile {\r\n\tartist:   Sex Pistols  \r\n\r\n"
            + "  title:Never Mind The Bollocks!\r\n    year : 1977\t\r\n  }  \r\n";
    assertThat(ProfileParser.parse(text)).isEqualTo(PISTOLS);
  }

  @Test
  void stripsWhitespaceAroundJsonValues() throws HttpProblem {
    assertThat(
            ProfileParser.parse(
                "  {\n \"artist\" : \"  Sex Pistols\\t\", \"title\":\"Never Mind The Bollocks!\","
                    + " \"year\": \" 1977 \" }\n"))
        .isEqualTo(PISTOLS);
  }

  @Test
  void keepsUnicodeExactlyInBothForms() throws HttpProblem {
    AlbumProfile expected = new AlbumProfile("Björk 🎵 坂本龍一", "Ænima – «Ça»", "1996");
    assertThat(
            ProfileParser.parse(
                "{\"artist\":\"Björk 🎵 坂本龍一\",\"title\":\"Ænima – «Ça»\",\"year\":\"1996\"}"))
        .isEqualTo(expected);
    assertThat(
            ProfileParser.parse(
                "{\"artist\":\"Bj\\u00f6rk \\ud83c\\udfb5 \\u5742\\u672c\\u9f8d\\u4e00\","
                    + "\"title\":\"\\u00c6nima \\u2013 \\u00ab\\u00c7a\\u00bb\",\"year\":\"1996\"}"))
        .isEqualTo(expected);
    assertThat(
            ProfileParser.parse(
                "class AlbumsProfile {\n    artist: Björk 🎵 坂本龍一\n    title: Ænima – «Ça»\n"
                    + "    year: 1996\n}"))
        .isEqualTo(expected);
  }

  @Test
  void keepsColonsAndBracesInsideTextValues() throws HttpProblem {
    assertThat(
            ProfileParser.parse(
                "class AlbumsProfile {\n    artist: A: B {C}\n    title: x: y\n    year: 2001\n}"))
        .isEqualTo(new AlbumProfile("A: B {C}", "x: y", "2001"));
  }

  @Test
  void acceptsAnIntegralJsonYearAndIgnoresUnknownFields() throws HttpProblem {
    assertThat(
            ProfileParser.parse(
                "{\"artist\":\"a\",\"title\":\"t\",\"year\":1977,\"genre\":\"punk\"}"))
        .isEqualTo(new AlbumProfile("a", "t", "1977"));
    assertThat(
            ProfileParser.parse(
                "class AlbumsProfile {\n artist: a\n title: t\n year: 1977\n genre: punk\n}"))
        .isEqualTo(new AlbumProfile("a", "t", "1977"));
  }

  @Test
  void acceptsAByteOrderMark() throws HttpProblem {
    assertThat(ProfileParser.parse("\uFEFF{\"artist\":\"a\",\"title\":\"t\",\"year\":\"1\"}"))
        .isEqualTo(new AlbumProfile("a", "t", "1"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"title\":\"t\",\"year\":\"1977\"}",
        "{\"artist\":null,\"title\":\"t\",\"year\":\"1977\"}",
        "{\"artist\":\"   \",\"title\":\"t\",\"year\":\"1977\"}",
        "class AlbumsProfile {\n    title: t\n    year: 1977\n}",
        "class AlbumsProfile {\n    artist: null\n    title: t\n    year: 1977\n}",
        "class AlbumsProfile {\n    artist:\n    title: t\n    year: 1977\n}",
      })
  void aMissingArtistIsNamed(String text) {
    assertProblem(text, "profile.artist is required");
  }

  @Test
  void missingTitleAndYearAreNamed() {
    assertProblem("{\"artist\":\"a\",\"year\":\"1977\"}", "profile.title is required");
    assertProblem("{\"artist\":\"a\",\"title\":\"t\"}", "profile.year is required");
    assertProblem("class AlbumsProfile {\n artist: a\n year: 1\n}", "profile.title is required");
    assertProblem("class AlbumsProfile {\n artist: a\n title: t\n}", "profile.year is required");
  }

  @Test
  void anImpossibleYearIsRefused() {
    assertProblem("{\"artist\":\"a\",\"title\":\"t\",\"year\":\"nineteen\"}", "profile.year must");
    assertProblem("{\"artist\":\"a\",\"title\":\"t\",\"year\":\"19770\"}", "profile.year must");
    assertProblem(
        "{\"artist\":\"a\",\"title\":\"t\",\"year\":19.5}", "profile.year must be a string");
  }

  @Test
  void nonStringJsonValuesAreRefused() {
    assertProblem(
        "{\"artist\":[\"a\"],\"title\":\"t\",\"year\":\"1\"}", "profile.artist must be a string");
    assertProblem(
        "{\"artist\":\"a\",\"title\":{},\"year\":\"1\"}", "profile.title must be a string");
    assertProblem(
        "{\"artist\":\"a\",\"title\":true,\"year\":\"1\"}", "profile.title must be a string");
  }

  @Test
  void controlCharactersAndOverlongValuesAreRefused() {
    assertProblem(
        "{\"artist\":\"a\\u0000b\",\"title\":\"t\",\"year\":\"1\"}", "control characters");
    assertProblem(
        "{\"artist\":\"" + "x".repeat(256) + "\",\"title\":\"t\",\"year\":\"1\"}",
        "at most 255 characters");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "hello",
        "artist=a&title=t&year=1",
        "[\"a\",\"t\",\"1\"]",
        "\"just a string\"",
        "{\"artist\":\"a\"",
        "{\"artist\":\"a\",\"title\":\"t\",\"year\":\"1\"} trailing",
        "{artist: a}",
        "class AlbumsProfile {",
        "class AlbumsProfile {\n    artist: a\n",
        "classy {\n artist: a\n}",
        "class AlbumsProfile {\n    this line has no colon\n    year: 1\n}",
      })
  void garbageIsRefusedWithTheFormsExplained(String text) {
    assertThatThrownBy(() -> ProfileParser.parse(text))
        .isInstanceOfSatisfying(
            HttpProblem.class,
            p -> {
              assertThat(p.status()).isEqualTo(400);
              assertThat(p.getMessage()).contains("class AlbumsProfile");
            });
  }

  @Test
  void aFieldGivenTwiceInTheTextFormIsRefused() {
    assertProblem(
        "class AlbumsProfile {\n artist: a\n artist: b\n title: t\n year: 1\n}",
        "profile.artist is given twice");
  }

  @Test
  void emptyMissingAndHugeProfilesAreRefused() {
    assertProblem("", "is empty");
    assertProblem(" \n\t ", "is empty");
    assertProblem(null, "is required");
    assertProblem("{\"artist\":\"" + "x".repeat(20_000) + "\"}", "at most 16384 characters");
  }

  private static void assertProblem(String text, String messagePart) {
    assertThatThrownBy(() -> ProfileParser.parse(text))
        .isInstanceOfSatisfying(
            HttpProblem.class,
            p -> {
              assertThat(p.status()).isEqualTo(400);
              assertThat(p.getMessage()).contains(messagePart);
            });
  }
}
