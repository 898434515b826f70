"""Korean particles after numbers and names (data_access.seed.news_text.josa): the reading of
the last digit decides, as it does after a Hangul syllable."""

from data_access.seed.news_text import josa


def test_a_number_takes_the_particle_of_its_last_digit_read_aloud() -> None:
    # 0 (영), 3 (삼), 6 (육) end in a consonant: 으로; 1 (일), 7 (칠), 8 (팔) end in ㄹ: 로
    assert josa("118.90", "으로/로") == "118.90으로"
    assert josa("2.25", "으로/로") == "2.25로"
    assert josa("7", "으로/로") == "7로" and josa("1,451", "으로/로") == "1,451로"
    assert josa("3.3", "으로/로") == "3.3으로" and josa("4,018", "으로/로") == "4,018로"
    assert josa("실업률", "으로/로") == "실업률로" and josa("한국", "으로/로") == "한국으로"
    assert josa("118.90", "은/는") == "118.90은" and josa("2.25", "이/가") == "2.25가"
