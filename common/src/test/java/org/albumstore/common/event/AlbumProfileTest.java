package org.albumstore.common.event;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AlbumProfileTest {

  @Test
  void completeProfileHasNoProblem() {
    assertThat(new AlbumProfile("Sex Pistols", "Never Mind The Bollocks!", "1977").problem())
        .isNull();
    assertThat(new AlbumProfile("Sigur Rós", "( )", "2002").problem()).isNull();
    assertThat(new AlbumProfile("坂本龍一", "音楽図鑑", "1984").problem()).isNull();
  }

  @Test
  void eachMissingFieldIsNamed() {
    assertThat(new AlbumProfile(null, "t", "1977").problem()).contains("artist");
    assertThat(new AlbumProfile("a", " ", "1977").problem()).contains("title");
    assertThat(new AlbumProfile("a", "t", "").problem()).contains("year");
  }

  @Test
  void yearMustBeDigits() {
    assertThat(new AlbumProfile("a", "t", "nineteen").problem()).contains("year");
    assertThat(new AlbumProfile("a", "t", "19777").problem()).contains("year");
    assertThat(new AlbumProfile("a", "t", "-1").problem()).contains("year");
    assertThat(new AlbumProfile("a", "t", "\u0663").problem()).contains("year"); // Arabic 3
    assertThat(new AlbumProfile("a", "t", "0").problem()).isNull();
    assertThat(new AlbumProfile("a", "t", "2025").problem()).isNull();
  }

  @Test
  void lengthIsCountedInCharactersNotBytes() {
    assertThat(new AlbumProfile("é".repeat(255), "t", "1").problem()).isNull();
    assertThat(new AlbumProfile("é".repeat(256), "t", "1").problem()).contains("at most 255");
    assertThat(new AlbumProfile("😀".repeat(255), "t", "1").problem()).isNull();
  }

  @Test
  void controlCharactersAreRejected() {
    assertThat(new AlbumProfile("a\u0000b", "t", "1").problem()).contains("control");
    assertThat(new AlbumProfile("a", "t\nx", "1").problem()).contains("control");
  }
}
