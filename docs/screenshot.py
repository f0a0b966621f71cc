"""Take docs/web.png, the web player's picture in the README, from the shipped trees.

    python docs/screenshot.py                      # docs/web.png: the page as it opens (today's Wordle)
    python docs/screenshot.py --out /tmp/web.png --tree wordle-salet-normal

It writes the site for the shipped tree (`wordtree web`, which verifies it first) into a
temporary folder, opens it from disk in the system's headless Chromium (the selenium set-up of
tests/test_web.py: apt-get install chromium chromium-driver; pip install -e .[test]), plays the
first feedback of the tree's own game against --answer so the page shows a position, and saves
the window. The histogram in the picture is then the shipped tree's own.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(ROOT / "docs" / "web.png"), help="the PNG to write (default docs/web.png)")
    p.add_argument("--tree", default="wordle-nyt2023-tarse-normal", help="the shipped tree shown (default: today's Wordle)")
    p.add_argument("--answer", default="cigar", help="the answer whose first feedback is entered (default cigar)")
    p.add_argument("--size", default="1200,900", help="window size W,H (default 1200,900)")
    args = p.parse_args(argv)

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    from wordtree.errors import UserError
    from wordtree.families import tree_path
    from wordtree.files import write_atomic
    from wordtree.web import build_site

    browser, driver_path = shutil.which("chromium") or shutil.which("chromium-browser"), shutil.which("chromedriver")
    if not browser or not driver_path:
        print("screenshot: needs chromium and chromedriver (apt-get install chromium chromium-driver)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="wordtree-shot-") as folder:
        site = Path(folder) / "site"
        try:
            build_site([tree_path(args.tree)], site)
        except UserError as exc:
            print(f"screenshot: {exc}", file=sys.stderr)
            return 1
        options = webdriver.ChromeOptions()
        options.binary_location = browser
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={Path(folder) / 'profile'}")
        options.add_argument(f"--window-size={args.size}")
        driver = webdriver.Chrome(options=options, service=Service(driver_path))
        try:
            driver.get((site / "index.html").as_uri())
            WebDriverWait(driver, 30).until(lambda d: d.execute_script("return document.body.dataset.ready === '1'"))
            word = driver.execute_script("return document.getElementById('guess').dataset.word")
            colours = driver.execute_script("return wordtreeGames.wordle.feedback(arguments[0], arguments[1])",
                                            word, args.answer.lower())
            box = driver.find_element(By.ID, "pattern")
            box.send_keys(colours + Keys.ENTER)
            driver.execute_script("document.activeElement.blur()")
            png = driver.get_screenshot_as_png()
        finally:
            driver.quit()
    write_atomic(args.out, png)
    print(f"wrote {args.out} ({args.tree}, {word}:{colours})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
