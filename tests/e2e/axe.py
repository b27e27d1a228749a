"""axe-core in the browser tests: the accessibility rules a page must pass, run in the page."""

from pathlib import Path

from playwright.sync_api import Page

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"


def axe_violations(page: Page) -> list[str]:
    """Each violation of axe-core's rules on the page as it is now, with the nodes at fault.

    The page's context must bypass its Content-Security-Policy (`bypass_csp=True`): the site
    allows no injected script, and axe-core is one."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
            .map(v => `${v.id}: ${v.help} at ${v.nodes.map(n => n.target.join(" ")).join(", ")}`)"""
    )
    return list(found)
